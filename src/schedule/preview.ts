// The week preview: each weekday's windows in the schedule's zone and, converted on the real dates of the coming
// week (so daylight-saving changes count), in the local zone.
import { dayNames, formatTime, formatWindows, type Window } from './week.js';

const dayMs = 86_400_000;

/** A formatter for each zone: making one costs far more than using it, and a preview reads each zone hundreds of times. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    if (formatters.size >= 1000) formatters.clear(); // zones come from a file: bounded all the same
    formatters.set(zone, formatter);
  }
  return formatter;
}

export function parts(
  instant: number,
  zone: string,
): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  const fields = formatterOf(zone).formatToParts(instant);
  const get = (type: string) => fields.find((f) => f.type === type)!.value;
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday')),
  };
}

/** The offset of `zone` from UTC at `instant`, in milliseconds (whole minutes). */
export function offsetMs(instant: number, zone: string): number {
  const p = parts(instant, zone);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant / 60_000) * 60_000;
}

/** No zone is further than 14 hours from UTC: the offsets on either side of a change near a wall time. */
const widestOffsetMs = 14 * 3_600_000;

/** The instant at which the wall clock in `zone` shows this date and time, as a scheduler reads it (RFC 5545 3.3.5,
 * Temporal's "compatible"): a time shown twice (the hour repeated when clocks go back) is the first of the two; a time
 * never shown (the hour skipped when they go forward) is moved forward by the skip, 01:30 on a night London goes from
 * 01:00 to 02:00 being 02:30. A fixed-point search flips between the two sides of a skipped hour, and lands on the
 * wrong one east of UTC. */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  const before = offsetMs(wall - widestOffsetMs, zone);
  const after = offsetMs(wall + widestOffsetMs, zone);
  const fitting = [before, after].filter((o) => offsetMs(wall - o, zone) === o).map((o) => wall - o);
  // None fits: the skipped hour. Read with the offset from before the change, the time falls after it, moved on.
  return fitting.length ? Math.min(...fitting) : wall - before;
}

export interface PreviewRow {
  day: string;
  schedule: string;
  local: string;
}

export function weekPreview(week: Window[][], zone: string, localZone: string, now: number): PreviewRow[] {
  return week.map((windows, weekday) => {
    // The next date (from today, in the schedule's zone) that falls on this weekday.
    let date = parts(now, zone);
    for (let i = 0; i < 7 && date.weekday !== weekday; i++) date = parts(now + (i + 1) * dayMs, zone);
    const local = windows.map((w) => {
      const show = (t: Window['start']) => {
        const p = parts(zonedInstant(date.year, date.month, date.day, t.hour, t.minute, zone), localZone);
        const time = formatTime(p);
        return p.weekday === weekday ? time : `${dayNames[p.weekday]!.slice(0, 3)} ${time}`;
      };
      return `${show(w.start)}-${show(w.end)}`;
    });
    return {
      day: dayNames[weekday]!,
      schedule: formatWindows(windows),
      local: local.length ? local.join(', ') : 'off',
    };
  });
}
