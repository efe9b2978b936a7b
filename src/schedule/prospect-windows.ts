// A schedule's windows as a prospect lives them: the first window that opens from now (in the schedule's zone and in
// the prospect's), and, over the windows of the next 30 days, whether one falls outside polite hours in the prospect's
// local time, whether the gap between the two zones changes (a daylight-saving change in one of them), and whether a
// window is open across such a change.
import { dayNames, formatTime, type Window } from './week.js';
import { offsetMs, parts, zonedInstant } from './preview.js';

const dayMs = 86_400_000;
/** Local hours a cold email may arrive at without looking like a robot sent it (or waking anyone). */
export const politeHours = { from: 7 * 60, to: 20 * 60 };

export interface ProspectWindows {
  /** The first window from now: when it opens and closes, as each zone shows it ("Tue 2026-11-24 09:00-12:00"), and
   * for programs, as instants (UTC) and as the prospect's clock reads the opening (with its offset). */
  first?: { schedule: string; local: string; opensAt: string; closesAt: string; localOpensAt: string };
  warnings: string[];
}

const minutesOf = (p: { hour: number; minute: number }) => p.hour * 60 + p.minute;
const ymd = (p: { year: number; month: number; day: number }) =>
  `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;

/** An instant as `zone`'s clock reads it, in ISO 8601 with the offset: "2026-03-02T09:00:00-05:00". */
function localIso(instant: number, zone: string): string {
  const p = parts(instant, zone);
  const offset = Math.round(offsetMs(instant, zone) / 60_000);
  const abs = Math.abs(offset);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${ymd(p)}T${formatTime(p)}:00${offset < 0 ? '-' : '+'}${hhmm}`;
}

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

/** The windows (as instants, and their length by the schedule's clock) that end after `now`, over the next `days` days,
 * in order. */
export function windowsAhead(
  week: Window[][],
  zone: string,
  now: number,
  days: number,
): Array<{ start: number; end: number; minutes: number }> {
  const found: Array<{ start: number; end: number; minutes: number }> = [];
  const today = parts(now, zone);
  for (let d = 0; d <= days; d++) {
    const date = dateAfter(today, d);
    for (const w of week[date.weekday] ?? []) {
      const at = (t: Window['start']) => zonedInstant(date.year, date.month, date.day, t.hour, t.minute, zone);
      // `minutes`: how long the schedule says it is open, by its clock's face.
      const window = { start: at(w.start), end: at(w.end), minutes: minutesOf(w.end) - minutesOf(w.start) };
      if (window.end > now && window.start < now + days * dayMs) found.push(window);
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Days ahead that the warnings look at: an impolite hour or a daylight-saving change within them is said. */
const horizonDays = 30;

/** Whether the prospect's clock moves against the schedule's at the given windows (those of the next 30 days): read
 * at each window's opening, not at this time of day on each day, since two zones that change on the same day an hour
 * apart (New York and Chicago) differ for that hour only, and no window sees it. The day it moves, by how much, and
 * the day it moves next: back (the United States and Europe change weeks apart), or on again (London forward in
 * March, Sydney back in April: both move a Sydney prospect's windows earlier). */
function gapChange(
  ahead: Array<{ start: number }>,
  scheduleZone: string,
  zone: string,
  now: number,
): { on: string; byMinutes: number; next?: { on: string; byMinutes: number; back: boolean } } | undefined {
  const gap = (at: number) => (offsetMs(at, zone) - offsetMs(at, scheduleZone)) / 60_000;
  const opens = ahead.map((w) => Math.max(w.start, now));
  const gaps = opens.map(gap);
  const moved = gaps.findIndex((g) => g !== gaps[0]);
  if (moved < 0) return undefined;
  const then = gaps.findIndex((g, i) => i > moved && g !== gaps[moved]);
  /** The zone whose clocks changed between two windows, and the day it did there: found at the first hour between
   * them at which the gap is the later one's (a Phoenix prospect's day is not New York's, whose change it is). */
  const changeOf = (i: number) => {
    let hour = opens[i - 1]!;
    while (hour < opens[i]! && gap(hour) !== gaps[i]) hour += 3_600_000;
    const at = Math.min(hour, opens[i]!);
    const changed = (z: string) => offsetMs(opens[i - 1]!, z) !== offsetMs(at, z);
    const who =
      changed(zone) && changed(scheduleZone)
        ? `${zone} and ${scheduleZone}`
        : changed(zone)
          ? `${zone} (the prospect's zone)`
          : `${scheduleZone} (the schedule's zone)`;
    return `in ${who} on ${ymd(parts(at, changed(zone) ? zone : scheduleZone))}`;
  };
  const next =
    then < 0 ? undefined : { on: changeOf(then), byMinutes: gaps[then]! - gaps[moved]!, back: gaps[then] === gaps[0] };
  return { on: changeOf(moved), byMinutes: gaps[moved]! - gaps[0]!, next };
}

const moves = (minutes: number) => `${Math.abs(minutes / 60)} h ${minutes > 0 ? 'later' : 'earlier'}`;
const hours = (minutes: number) => `${Math.abs(minutes) / 60} h`;

/** Minutes between two readings of a clock, as its face shows them (a day later is 1,440 more). */
function faceMinutes(a: ReturnType<typeof parts>, b: ReturnType<typeof parts>): number {
  const at = (p: typeof a) => Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return (at(b) - at(a)) / 60_000;
}

/** The first window ahead during which a clock changes, the schedule's or the prospect's, found where the clock's face
 * and the time that passes disagree: one in the schedule's zone is open longer or shorter than it says (Sunday
 * 01:00-03:00 in London on the last Sunday of March, whose 01:00 never comes, is open one hour); one in the
 * prospect's alone moves their clock while it is open. */
function windowAcrossChange(
  ahead: Array<{ start: number; end: number; minutes: number }>,
  scheduleZone: string,
  zone: string,
): string | undefined {
  for (const { start, end, minutes } of ahead) {
    const passes = (end - start) / 60_000;
    if (passes !== minutes)
      return (
        `the window ${shown(start, end, scheduleZone)} (the schedule's time) spans the daylight-saving change in ` +
        `${scheduleZone}: it is open ${hours(passes)}, not ${hours(minutes)}`
      );
    const moved = faceMinutes(parts(start, zone), parts(end, zone)) - passes;
    if (moved)
      return (
        `the window ${shown(start, end, zone)} local spans the daylight-saving change in ${zone}: local clocks go ` +
        `${hours(moved)} ${moved > 0 ? 'forward' : 'back'} while it is open`
      );
  }
  return undefined;
}

export function prospectWindows(week: Window[][], scheduleZone: string, zone: string, now: number): ProspectWindows {
  const ahead = windowsAhead(week, scheduleZone, now, horizonDays);
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
  const change = gapChange(ahead, scheduleZone, zone, now);
  const then = change?.next;
  if (change)
    warnings.push(
      `daylight-saving change ${change.on}: windows move ${moves(change.byMinutes)} in local time from then` +
        (!then
          ? ''
          : then.back
            ? `, and back from the change ${then.on}`
            : `, and ${moves(then.byMinutes)} from the change ${then.on}`),
    );
  const across = windowAcrossChange(ahead, scheduleZone, zone);
  if (across) warnings.push(across);
  const next = ahead[0];
  if (!next) return { warnings: [...warnings, 'the schedule has no sending window'] };
  // Open now: this minute (not the clock's milliseconds), inside the window shown.
  const opens = Math.max(next.start, now - (now % 60_000));
  return {
    first: {
      schedule: shown(next.start, next.end, scheduleZone),
      local: shown(next.start, next.end, zone),
      opensAt: new Date(opens).toISOString(),
      closesAt: new Date(next.end).toISOString(),
      localOpensAt: localIso(opens, zone),
    },
    warnings,
  };
}
