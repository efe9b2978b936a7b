// A schedule's windows as a prospect lives them: the first window that opens from now (in the schedule's zone and in
// the prospect's), each window of the coming week in the prospect's local time, and whether the gap between the two
// zones changes (a daylight-saving change in one of them) in the next 30 days.
import { dayNames, formatTime, type Window } from './week.js';
import { parts, zonedInstant } from './preview.js';

const dayMs = 86_400_000;
/** Local hours a cold email may arrive at without looking like a robot sent it (or waking anyone). */
export const politeHours = { from: 7 * 60, to: 20 * 60 };

export interface ProspectWindows {
  /** The first window from now: when it opens and closes, as each zone shows it ("Tue 2026-11-24 09:00-12:00"). */
  first?: { schedule: string; local: string; opensAt: string };
  warnings: string[];
}

const minutesOf = (p: { hour: number; minute: number }) => p.hour * 60 + p.minute;
const ymd = (p: { year: number; month: number; day: number }) =>
  `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;

/** "Tue 2026-11-24 09:00-12:00" (the end's day too when it is another). */
function shown(start: number, end: number, zone: string): string {
  const a = parts(start, zone);
  const b = parts(end, zone);
  const day = (p: typeof a) => `${dayNames[p.weekday]!.slice(0, 3)} ${ymd(p)}`;
  return `${day(a)} ${formatTime(a)}-${ymd(a) === ymd(b) ? '' : `${day(b)} `}${formatTime(b)}`;
}

/** The calendar date `days` after the date `p` (in whatever zone p was read), with its weekday: stepping dates, not
 * 24-hour spans, which skip or repeat a day across a daylight-saving change. */
function dateAfter(p: { year: number; month: number; day: number }, days: number) {
  const at = new Date(Date.UTC(p.year, p.month - 1, p.day + days));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate(), weekday: at.getUTCDay() };
}

/** The windows (as instants) that end after `now`, over the next 7 days, in order. */
export function windowsAhead(week: Window[][], zone: string, now: number): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  const today = parts(now, zone);
  for (let d = 0; d <= 7; d++) {
    const date = dateAfter(today, d);
    for (const w of week[date.weekday] ?? []) {
      const at = (t: Window['start']) => zonedInstant(date.year, date.month, date.day, t.hour, t.minute, zone);
      const window = { start: at(w.start), end: at(w.end) };
      if (window.end > now && window.start < now + 7 * dayMs) found.push(window);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The offset of `zone` from UTC at `instant`, in minutes. */
function offset(instant: number, zone: string): number {
  const p = parts(instant, zone);
  return Math.round(
    (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - Math.floor(instant / 60_000) * 60_000) / 60_000,
  );
}

/** The first day in the next 30 on which the prospect's clock moves against the schedule's, and by how much: found
 * a day at a time, then to the hour (so the date named is the day of the change, whatever the time of day now). */
function gapChange(scheduleZone: string, zone: string, now: number): { on: string; byMinutes: number } | undefined {
  const gap = (at: number) => offset(at, zone) - offset(at, scheduleZone);
  const today = gap(now);
  for (let d = 1; d <= 30; d++) {
    const at = now + d * dayMs;
    const later = gap(at);
    if (later === today) continue;
    let hour = at - dayMs;
    while (gap(hour + 3_600_000) === today) hour += 3_600_000;
    return { on: ymd(parts(hour + 3_600_000, zone)), byMinutes: later - today };
  }
  return undefined;
}

export function prospectWindows(week: Window[][], scheduleZone: string, zone: string, now: number): ProspectWindows {
  const ahead = windowsAhead(week, scheduleZone, now);
  const warnings: string[] = [];
  for (const { start, end } of ahead) {
    const a = parts(start, zone);
    const b = parts(end, zone);
    const overnight = ymd(a) !== ymd(b);
    if (minutesOf(a) < politeHours.from || overnight || minutesOf(b) > politeHours.to) {
      warnings.push(`sends ${shown(start, end, zone)} local, outside 07:00-20:00`);
      break; // one is enough to say; the schedule repeats it
    }
  }
  const change = gapChange(scheduleZone, zone, now);
  if (change)
    warnings.push(
      `daylight-saving change on ${change.on}: windows move ${Math.abs(change.byMinutes / 60)} h ` +
        `${change.byMinutes > 0 ? 'later' : 'earlier'} in local time from then`,
    );
  const next = ahead[0];
  if (!next) return { warnings: [...warnings, 'the schedule has no sending window'] };
  return {
    first: {
      schedule: shown(next.start, next.end, scheduleZone),
      local: shown(next.start, next.end, zone),
      opensAt: new Date(Math.max(next.start, now)).toISOString(),
    },
    warnings,
  };
}
