// Sending windows: parsing "09:00-12:00, 13:30-17:00", and the checks the API's rules imply.
// An end of 24:00 is refused: the API's times are {hour 0-23, minute 0-59}; 23:59 is the last minute of a day.
import type { ScheduleBody } from '../api/contract/schedules.js';
import { zoneHint } from './zone-hint.js';

export const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const dayKeys = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export interface Time {
  hour: number;
  minute: number;
}
export interface Window {
  start: Time;
  end: Time;
}

export class WindowError extends Error {}

/** The day index (0 = Sunday) of "mon", "monday", "Mon" or "1". */
export function dayIndex(text: string): number | undefined {
  const key = text.trim().toLowerCase();
  if (/^[0-6]$/.test(key)) return Number(key);
  const found = dayKeys.findIndex((d, i) => key === d || key === dayNames[i]!.toLowerCase());
  return found >= 0 ? found : undefined;
}

function parseTime(text: string, where: string): Time {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) throw new WindowError(`${where}: "${text.trim()}" is not a time like 09:30`);
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour === 24 && minute === 0)
    throw new WindowError(`${where}: 24:00 is not a time the API takes; end the window at 23:59`);
  if (hour > 23) throw new WindowError(`${where}: hour ${hour} is not between 0 and 23`);
  if (minute > 59) throw new WindowError(`${where}: minute ${minute} is not between 0 and 59`);
  return { hour, minute };
}

export const minutes = (t: Time) => t.hour * 60 + t.minute;
export const formatTime = (t: Time) => `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
export const formatWindows = (windows: Window[]) =>
  windows.length ? windows.map((w) => `${formatTime(w.start)}-${formatTime(w.end)}`).join(', ') : 'off';

/** Windows of one day, checked: each start before its end, none overlapping. "off" or "" is a day without windows. */
export function parseWindows(text: string, day: string): Window[] {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === '' || trimmed === 'off') return [];
  const windows = trimmed.split(',').map((part) => {
    const [from, to, extra] = part.split('-');
    if (to === undefined || extra !== undefined)
      throw new WindowError(`${day}, "${part.trim()}": write a window as 09:00-12:00`);
    const where = `${day}, window ${part.trim()}`;
    return { start: parseTime(from!, where), end: parseTime(to, where) };
  });
  return checkWindows(windows, day);
}

export function checkWindows(windows: Window[], day: string): Window[] {
  for (const w of windows) {
    if (minutes(w.start) >= minutes(w.end))
      throw new WindowError(`${day}, window ${formatWindows([w])}: the start must be before the end`);
  }
  const sorted = [...windows].sort((a, b) => minutes(a.start) - minutes(b.start));
  for (let i = 1; i < sorted.length; i++) {
    if (minutes(sorted[i]!.start) < minutes(sorted[i - 1]!.end)) {
      throw new WindowError(
        `${day}: windows ${formatWindows([sorted[i - 1]!])} and ${formatWindows([sorted[i]!])} overlap`,
      );
    }
  }
  return sorted;
}

/** Names ICU takes that IANA does not have: Java's old three-letter ids, each standing for one zone that is rarely
 * the one meant (BST is Asia/Dhaka, not London's summer time; IST India, not Ireland or Israel; AST Anchorage, not
 * Atlantic time), and its SystemV zones. IANA's own short names (EST, MST, HST, UTC, CET...) are not among them. */
const icuOnly =
  /^(act|aet|agt|art|ast|bet|bst|cat|cnt|cst|ctt|eat|ect|iet|ist|jst|mit|net|nst|plt|pnt|prt|pst|sst|vst)$|^systemv\//i;

/** A real IANA zone? Intl.supportedValuesOf omits some (UTC, Asia/Kolkata), so ask the formatter, which knows them all
 * (and more: see icuOnly). */
export function isTimeZone(zone: string): boolean {
  if (icuOnly.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Segments IANA writes in capitals: UTC, GMT+5, EST5EDT, US, NZ. */
const capitalSegment =
  /^(utc|uct|gmt|est|mst|hst|cet|eet|met|wet|prc|roc|rok|nz|us|gb)$|^[a-z]{3}\d[a-z]{3}$|^gmt[+-]\d+$/i;
/** Short words IANA leaves in lower case inside a name: Port-au-Prince, Dar_es_Salaam. */
const lowerWord = /^(au|es|de|of)$/i;

/** IANA spelling of a name typed in one case: america/port-au-prince -> America/Port-au-Prince. */
function ianaCase(zone: string): string {
  return zone
    .split('/')
    .map((segment) =>
      capitalSegment.test(segment)
        ? segment.toUpperCase()
        : segment
            .split(/([_-])/)
            .map((word, i) =>
              i > 0 && lowerWord.test(word)
                ? word.toLowerCase()
                : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
            )
            .join(''),
    )
    .join('/');
}

/**
 * The zone spelled as the IANA database spells it, so the service stores one name for one zone: only the letter case
 * is fixed (america/new_york -> America/New_York). The name itself is kept: ICU's own canonical names are sometimes
 * the old ones (Europe/Kyiv would become Europe/Kiev). Undefined when it is no zone.
 */
export function canonicalTimeZone(zone: string): string | undefined {
  if (!isTimeZone(zone)) return undefined;
  const resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  if (resolved.toLowerCase() === zone.toLowerCase()) return resolved;
  // Typed all in one case: give it IANA's case. Otherwise the user's spelling stands.
  return zone === zone.toLowerCase() || zone === zone.toUpperCase() ? ianaCase(zone) : zone;
}

/** Checks a whole body (also one read from a file) and returns it with its zone spelled canonically. */
export function checkedSchedule(body: ScheduleBody): ScheduleBody {
  checkSchedule(body);
  // The service takes a week without a window, and nothing would ever be sent on it: a mistake, said before sending.
  if (body.timeSlots.every((day) => day.slots.length === 0))
    throw new WindowError('the schedule has no sending window: give at least one day, e.g. --day mon=09:00-17:00');
  return { ...body, timezone: canonicalTimeZone(body.timezone)! };
}

/** Checks a whole body: 7 days 0-6 without repeats, each day's windows, the zone. */
export function checkSchedule(body: ScheduleBody): void {
  if (!isTimeZone(body.timezone))
    throw new WindowError(
      `timezone "${body.timezone}" is not an IANA time zone (${zoneHint(body.timezone) ?? 'e.g. Europe/Berlin'})`,
    );
  if (body.timeSlots.length !== 7)
    throw new WindowError(`timeSlots has ${body.timeSlots.length} days; it needs exactly 7, one per weekday 0-6`);
  const seen = new Set<number>();
  for (const { day, slots } of body.timeSlots) {
    if (!Number.isInteger(day) || day < 0 || day > 6)
      throw new WindowError(`timeSlots: day ${day} is not 0 (Sunday) to 6 (Saturday)`);
    if (seen.has(day)) throw new WindowError(`timeSlots: ${dayNames[day]} (day ${day}) appears twice`);
    seen.add(day);
    for (const s of slots) {
      for (const t of [s.start, s.end]) {
        if (t.hour < 0 || t.hour > 23 || t.minute < 0 || t.minute > 59)
          throw new WindowError(`${dayNames[day]}: ${t.hour}:${t.minute} is not a time (hours 0-23, minutes 0-59)`);
      }
    }
    checkWindows(slots, dayNames[day]!);
  }
}

export function buildBody(name: string, timezone: string, week: Window[][], isDefault: boolean): ScheduleBody {
  return {
    name,
    timezone,
    timeSlots: week.map((slots, day) => ({ day, slots })),
    ...(isDefault ? { isDefault: true } : {}),
  };
}

/** The non-interactive command that makes the same schedule. */
export function equivalentCommand(body: ScheduleBody): string {
  const quote = (s: string) => (/^[\w/+.-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const days = body.timeSlots
    .filter((d) => d.slots.length)
    .map((d) => `--day ${dayKeys[d.day]}=${formatWindows(d.slots).replace(/ /g, '')}`);
  return [
    'outreach schedules create',
    `--name ${quote(body.name)}`,
    `--timezone ${body.timezone}`,
    ...days,
    ...(body.isDefault ? ['--default'] : []),
  ].join(' ');
}
