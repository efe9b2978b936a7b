import { createReadStream } from 'node:fs';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { listResult } from '../../cli/result.js';
import { NotFound, UsageError } from '../../errors.js';
import { formatCount } from '../../format.js';
import { visible } from '../../visible-text.js';
import { listSchedules } from '../../api/resources/schedules.js';
import type { HttpClient } from '../../api/http.js';
import type { ScheduleRecord } from '../../api/contract/schedules.js';
import { openCsv, type CsvSource } from '../../io/csv-reader.js';
import { openJobInput } from '../../jobs/input.js';
import { prospectWindows, type ProspectWindows } from '../../schedule/prospect-windows.js';
import { canonicalTimeZone, checkWindows, isTimeZone as isZone, type Window } from '../../schedule/week.js';
import { zoneHint } from '../../schedule/zone-hint.js';
import { ianaOfWindowsZone, loadWindowsZones } from '../../schedule/windows-zone.js';
import { normaliseName } from '../../io/import/column-mapping.js';

const zoneNames = ['timezone', 'tz', 'timezoneid', 'timezonename', 'prospecttimezone', 'contacttimezone', 'zone'];
const emailNames = ['email', 'emailaddress', 'workemail', 'e-mail', 'contactemail', 'prospectemail'];
/** Distinct zones worked out at most: a file's zones repeat, and a file of made-up ones must not grow memory. */
const maxCachedZones = 1000;

interface Row extends ProspectWindows {
  row: number;
  email: string;
  timezone: string;
}

/** The column `flag` names, else the first whose name is one of `names`; -1 when none. `columns`: the hint that
 * lists the file's columns. */
function columnOf(
  header: string[],
  flag: { name: string; value?: string },
  names: string[],
  file: string,
  columns: string,
) {
  const keys = header.map(normaliseName);
  if (flag.value === undefined) return keys.findIndex((k) => names.includes(k));
  const at = header.indexOf(flag.value);
  const found = at >= 0 ? at : keys.indexOf(normaliseName(flag.value));
  if (found < 0) throw new UsageError(`${flag.name} ${visible(flag.value)}: ${file} has no such column`, columns);
  return found;
}

/** The zone and email columns (closing the file when it has not the ones needed). */
function columnsOf(
  source: CsvSource,
  file: string,
  opts: { timezone?: string; timezoneColumn?: string; emailColumn?: string },
): { zoneColumn: number; emailColumn: number } {
  const columns = `Its columns are: ${source.header.map((h) => visible(h)).join(', ')}`;
  try {
    const column = (name: string, value: string | undefined, names: string[]) =>
      columnOf(source.header, { name, value }, names, file, columns);
    const zoneColumn = column('--timezone-column', opts.timezoneColumn, zoneNames);
    const emailColumn = column('--email-column', opts.emailColumn, emailNames);
    if (zoneColumn < 0 && opts.timezone === undefined)
      throw new UsageError(
        `${file}: no time-zone column (timezone, time zone, tz) and no --timezone`,
        `${columns}. --timezone-column NAME names the column.`,
      );
    if (emailColumn < 0)
      throw new UsageError(
        `${file}: no email column (email, email address)`,
        `${columns}. --email-column NAME names it.`,
      );
    return { zoneColumn, emailColumn };
  } catch (error) {
    source.close();
    throw error;
  }
}

/** A row's windows, or why it has none: its zone is missing or not one. */
type ZonedWindows = ProspectWindows & { badZone?: 'missing' | 'invalid' };

/** A row's zone that is not one, with what it probably meant ("Paris": did you mean Europe/Paris?). */
function notAZone(column: string, given: string): string {
  const hint = zoneHint(given);
  return `${column}: "${visible(given)}" is not an IANA time zone${hint ? ` (${hint})` : ''}`;
}

/** --timezone, refused when it is not a zone, with what it probably meant. */
function checkZoneFlag(zone: string): void {
  if (isZone(zone)) return;
  const hint = zoneHint(zone);
  throw new UsageError(
    `--timezone ${zone}: not an IANA time zone (e.g. America/New_York)`,
    hint && hint.charAt(0).toUpperCase() + hint.slice(1),
  );
}

/** A prospect's windows by the zone as the file writes it, each worked out once (a zone is looked up through ICU: a
 * millisecond, not a microsecond), at most maxCachedZones of them: a file of made-up zones must not grow memory. */
function windowsByZone(
  week: Window[][],
  scheduleZone: string,
  now: number,
  /** The column the zones come from (a --timezone is checked before any row is read: a zone not one is the column's). */
  column: string,
  /** Told once for each Windows zone name the file writes, with the IANA zone it is read as. */
  mapped: (windowsName: string, zone: string) => void,
): (given: string) => ZonedWindows {
  const cache = new Map<string, ZonedWindows>();
  // Each name told once however it is written (there are some 140 of them).
  const told = new Set<string>();
  const windowsZone = (given: string) => {
    const zone = ianaOfWindowsZone(given);
    if (zone && !told.has(given.toLowerCase())) {
      told.add(given.toLowerCase());
      mapped(given, zone);
    }
    return zone;
  };
  return (given) => {
    let preview = cache.get(given);
    if (preview) return preview;
    // A file from a Windows-based tool writes its zones by Windows' names: each read as the IANA zone it means.
    const zone = given ? (canonicalTimeZone(given) ?? windowsZone(given)) : '';
    preview =
      zone === ''
        ? { warnings: ['no time zone (give --timezone for rows without one)'], badZone: 'missing' as const }
        : zone === undefined
          ? { warnings: [notAZone(column, given)], badZone: 'invalid' as const }
          : withFixedZone(zone, prospectWindows(week, scheduleZone, zone, now));
    if (cache.size < maxCachedZones) cache.set(given, preview);
    return preview;
  };
}

/** IANA's fixed zones a CRM writes for a region that keeps daylight saving: EST is UTC-05:00 all year, where most
 * who write it mean US Eastern time, which moves to EDT in summer. The zone is used as written, and this is said. */
const fixedMeant: Record<string, string> = {
  EST: 'UTC-05:00 all year; US Eastern time, which moves to EDT in summer, is America/New_York',
  MST: "UTC-07:00 all year (Arizona's time); the rest of US Mountain time, which moves to MDT in summer, is America/Denver",
};

/** The windows of a zone written as a fixed one a region with daylight saving is often meant by: said first. */
function withFixedZone(zone: string, preview: ZonedWindows): ZonedWindows {
  // In any case: a spelling such as Est is kept as written, and is the same zone.
  const meant = fixedMeant[zone.toUpperCase()];
  return meant ? { ...preview, warnings: [`${zone.toUpperCase()} is ${meant}`, ...preview.warnings] } : preview;
}

/** What to do about the warnings, by their kinds: zones to fix, rows to fix, or the schedule's windows. */
function warningHint(warned: number, unread: number, badZones: { missing: number; invalid: number }): string {
  return [
    badZones.invalid ? 'Write their zones as IANA names (such as America/New_York).' : '',
    badZones.missing ? 'Give --timezone for the rows without a zone.' : '',
    warned > badZones.invalid + badZones.missing + unread
      ? 'Give them a schedule in their own zone (outreach schedules create --timezone ...), or move the windows.'
      : '',
    unread ? 'Fix the rows not read.' : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Every record of the file read once before anything is shown: a file that cannot be read (a quote never closed)
 * stops the command with stdout still empty, not half a JSON document. */
async function checkReadable(path: string, name: string): Promise<void> {
  const source = await openCsv(createReadStream(path), { name });
  try {
    for await (const record of source.rows) void record;
  } finally {
    source.close();
  }
}

/** The schedule's week, each window checked (its answer is read back, not trusted): windows by weekday. */
function weekOf(schedule: ScheduleRecord): Window[][] {
  const week: Window[][] = [[], [], [], [], [], [], []];
  const time = (t: unknown) => {
    const { hour, minute } = (t ?? {}) as { hour?: unknown; minute?: unknown };
    if (!Number.isInteger(hour) || !Number.isInteger(minute) || (hour as number) > 23 || (minute as number) > 59)
      throw new UsageError(`schedule ${schedule.id}: a window has a time the CLI cannot read (${JSON.stringify(t)})`);
    return { hour: hour as number, minute: minute as number };
  };
  for (const day of schedule.timeSlots ?? []) {
    if (!Number.isInteger(day.day) || day.day < 0 || day.day > 6) continue;
    const windows = day.slots.map((slot) => {
      const { start, end } = (slot ?? {}) as { start?: unknown; end?: unknown };
      return { start: time(start), end: time(end) };
    });
    week[day.day] = checkWindows(windows, `schedule ${schedule.id}`);
  }
  return week;
}

/** The schedule's zone and windows, as read back from the service (checked before use). */
async function scheduleOf(http: HttpClient, id: string): Promise<{ scheduleZone: string; week: Window[][] }> {
  const found = (await listSchedules(http)).find((s) => String(s.schedule.id) === id)?.schedule;
  if (!found) throw new NotFound(`no schedule ${id}`, 'See them with: outreach schedules list');
  const scheduleZone = found.timezone ?? '';
  if (!isZone(scheduleZone))
    throw new UsageError(`schedule ${id}: its zone "${visible(scheduleZone)}" is not an IANA time zone`);
  return { scheduleZone, week: weekOf(found) };
}

export default defineVerb({
  agent: { kind: 'read' },
  exitCodes: [ExitCode.partial],
  args: [arg.text('scheduleId')],
  description: [
    "For each prospect of the CSV: when the schedule's first sending window from now opens and closes, in the",
    "schedule's zone and in the prospect's own (the file's time-zone column: timezone, time zone or tz, or the one",
    '--timezone-column names; --timezone for rows without one, or for a file without the column). A warning where a',
    'window of the next 30 days falls outside 07:00-20:00 local time, or where the gap between the two zones changes at',
    'those windows (a daylight-saving change in either; and when it changes back, or again), or where a window is open',
    "across such a change (shorter or longer in the schedule's zone, the prospect's clock moving in theirs). A wall",
    'time a change skips is read an hour on (01:30 on a night clocks go from 01:00 to 02:00 is 02:30), one it repeats',
    'as the first.',
    "A file's Windows zone names (Pacific Standard Time) are read as the IANA zones they mean, each said once.",
    'Zone abbreviations ICU reads as other places (BST is Asia/Dhaka to it) are not IANA zones; EST and MST, fixed all',
    'year, warn with the zone a US region with daylight saving is (America/New_York). A row that cannot be read',
    '(a cell too many) is listed with why. Exit 3 when any prospect has a warning; 2 when the file has no rows. The',
    'file (or - for stdin) is read as a stream; --json and --ndjson give row, email, timezone, first {schedule, local,',
    "opensAt, closesAt (UTC), localOpensAt (the prospect's clock, with its offset)} (null for a row without a window)",
    'and warnings.',
  ].join('\n'),
  examples: [
    'schedules preview 58964 --prospects leads.csv --timezone Europe/Paris --json',
    'schedules preview 58964 --prospects export.csv --email-column "Work Email" --timezone-column "Contact Timezone"',
  ],
  flags: {
    prospects: flag.requiredText('the prospects CSV (an email column and a time-zone column), or - for stdin', {
      value: 'file',
    }),
    timezone: flag.text('the zone of rows without one (IANA, e.g. Europe/Paris)', { value: 'zone' }),
    timezoneColumn: flag.text("the column holding each prospect's zone (default: timezone, time zone or tz)", {
      value: 'name',
    }),
    emailColumn: flag.text("the column holding each prospect's email (default: email, email address...)", {
      value: 'name',
    }),
  },
  async run(ctx, opts) {
    await loadWindowsZones();
    if (opts.timezone !== undefined) checkZoneFlag(opts.timezone);
    const file = opts.prospects === '-' ? 'stdin' : opts.prospects;
    const input = await openJobInput(ctx, opts.prospects);
    // The copy of stdin goes when the command ends, however it ends (the rows may never be read: a bad --fields).
    ctx.onDispose(() => input.cleanup());
    const id = opts.args[0];
    const { scheduleZone, week } = await scheduleOf(await ctx.http(), id);
    await checkReadable(input.path, file);
    const source = await openCsv(createReadStream(input.path), { name: file });
    const { zoneColumn, emailColumn } = columnsOf(source, file, opts);
    const zoneColumnName = zoneColumn >= 0 ? `column "${visible(source.header[zoneColumn]!)}"` : '--timezone';
    const now = ctx.clock.now();
    // The schedule's first window is every prospect's: said once above the table (its column is the first to go).
    const first = prospectWindows(week, scheduleZone, scheduleZone, now).first?.schedule;
    const windowsIn = windowsByZone(week, scheduleZone, now, zoneColumnName, (name, zone) =>
      // Also under --json (stderr): the rows keep the name as written.
      ctx.note(`"${visible(name)}" is Windows' name for ${zone}: its rows are worked out in that zone`),
    );
    let warned = 0;
    let unread = 0;
    const badZones = { missing: 0, invalid: 0 };
    let rows = 0;
    async function* previews(): AsyncGenerator<Row> {
      try {
        for await (const record of source.rows) {
          rows++;
          const email = record.fields[emailColumn]?.trim() ?? '';
          const given = (zoneColumn >= 0 ? record.fields[zoneColumn]?.trim() : '') || opts.timezone || '';
          if ('reason' in record) {
            warned++;
            unread++;
            yield { row: record.row, email, timezone: given, warnings: [`not read: ${record.reason}`] };
            continue;
          }
          const { badZone, ...preview } = windowsIn(given);
          if (preview.warnings.length) warned++;
          if (badZone) badZones[badZone]++;
          yield { row: record.row, email, timezone: given, ...preview };
        }
        // A header alone previews no one: said as an error, as an import of it is, not an empty table and exit 0.
        if (!rows)
          throw new UsageError(
            `${file}: no data rows under the header`,
            'Give a file with one prospect on each line under the header (a time-zone column, or --timezone).',
          );
      } finally {
        source.close();
      }
    }
    return listResult(
      previews(),
      [
        { header: 'ROW', value: (r) => r.row },
        { header: 'EMAIL', value: (r) => r.email, key: true },
        // Never cut to fit: "America/…" names no zone, and the local window is what the command is for.
        { header: 'TIMEZONE', value: (r) => r.timezone, key: true },
        { header: 'FIRST WINDOW (LOCAL)', value: (r) => r.first?.local ?? '', key: true },
        { header: 'FIRST WINDOW (SCHEDULE)', value: (r) => r.first?.schedule ?? '', drop: 1 },
        // For scripts: a table has the window in both zones already.
        { header: 'OPENS AT', value: (r) => r.first?.opensAt ?? '', dataOnly: true },
        { header: 'CLOSES AT', value: (r) => r.first?.closesAt ?? '', dataOnly: true },
        { header: 'LOCAL OPENS AT', value: (r) => r.first?.localOpensAt ?? '', dataOnly: true },
        { header: 'WARNINGS', value: (r) => r.warnings.join('; '), lines: (r) => r.warnings },
      ],
      // One shape a row: a row with no window (not read, no zone) has first: null, not no member.
      {
        raw: ({ row, email, timezone, first, warnings }) => ({ row, email, timezone, first: first ?? null, warnings }),
      },
      {
        said: `Schedule ${id} sends in ${scheduleZone}${first ? `; its first window from now: ${first}` : ''}.`,
        after: () =>
          warned
            ? {
                exitCode: ExitCode.partial,
                failing:
                  `${formatCount(warned)} of ${formatCount(rows)} prospects ${warned === 1 ? 'has' : 'have'} a warning` +
                  (unread
                    ? ` (${formatCount(unread)} of them ${unread === 1 ? 'a row' : 'rows'} that could not be read)`
                    : ''),
                hint: warningHint(warned, unread, badZones),
              }
            : {},
      },
    );
  },
});
