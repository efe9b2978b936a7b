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

/** The instant at which the wall clock in `zone` shows this date and time. */
export function zonedInstant(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  zone: string,
): number {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall;
  for (let i = 0; i < 3; i++) {
    const p = parts(guess, zone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
    guess += wall - shown;
  }
  return guess;
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
