import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { listResult } from '../../cli/result.js';
import { NotFound, UsageError } from '../../errors.js';
import { formatCount } from '../../format.js';
import { visible } from '../../visible-text.js';
import { listSchedules } from '../../api/resources/schedules.js';
import type { ScheduleRecord } from '../../api/contract/schedules.js';
import { openCsv } from '../../io/csv-reader.js';
import { checkReadableFile } from '../../io/input-file.js';
import { prospectWindows, type ProspectWindows } from '../../schedule/prospect-windows.js';
import { canonicalTimeZone, checkWindows, isTimeZone as isZone, type Window } from '../../schedule/week.js';
import { normaliseName } from '../../io/import/column-mapping.js';

const zoneNames = ['timezone', 'tz', 'timezoneid', 'prospecttimezone', 'zone'];
const emailNames = ['email', 'emailaddress', 'workemail', 'e-mail'];
/** Distinct zones worked out at most: a file's zones repeat, and a file of made-up ones must not grow memory. */
const maxCachedZones = 1000;

interface Row extends ProspectWindows {
  row: number;
  email: string;
  timezone: string;
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

export default defineVerb({
  agent: { kind: 'read' },
  exitCodes: [ExitCode.partial],
  args: [arg.text('scheduleId')],
  description: [
    "For each prospect of the CSV: when the schedule's first sending window from now opens and closes, in the",
    "schedule's zone and in the prospect's own (the file's time-zone column: timezone, time zone or tz; --timezone",
    'for rows without one, or for a file without the column). A warning where a window of the coming week falls',
    'outside 07:00-20:00 local time, or where the gap between the two zones changes at the windows of the next 30',
    'days (a daylight-saving change in either; and when it changes back). Zone abbreviations ICU reads as other',
    'places (BST is Asia/Dhaka to it) are not IANA zones. Exit 3 when any prospect has a warning. The file is read as',
    'a stream; --json and --ndjson give row, email, timezone, first {schedule, local, opensAt} and warnings.',
  ].join('\n'),
  examples: ['schedules preview 58964 --prospects leads.csv --timezone Europe/Paris --json'],
  flags: {
    prospects: flag.requiredText('the prospects CSV (an email column and a time-zone column)', { value: 'file' }),
    timezone: flag.text('the zone of rows without one (IANA, e.g. Europe/Paris)', { value: 'zone' }),
  },
  async run(ctx, opts) {
    if (opts.timezone !== undefined && !isZone(opts.timezone))
      throw new UsageError(`--timezone ${opts.timezone}: not an IANA time zone (e.g. America/New_York)`);
    const path = resolve(ctx.cwd, opts.prospects);
    checkReadableFile(path, `--prospects: ${opts.prospects}`);
    const id = opts.args[0];
    const found = (await listSchedules(await ctx.http())).find((s) => String(s.schedule.id) === id)?.schedule;
    if (!found) throw new NotFound(`no schedule ${id}`, 'See them with: outreach schedules list');
    const scheduleZone = found.timezone ?? '';
    if (!isZone(scheduleZone))
      throw new UsageError(`schedule ${id}: its zone "${scheduleZone}" is not an IANA time zone`);
    const week = weekOf(found);
    const source = await openCsv(createReadStream(path), { name: opts.prospects });
    const keys = source.header.map(normaliseName);
    const zoneColumn = keys.findIndex((k) => zoneNames.includes(k));
    const emailColumn = keys.findIndex((k) => emailNames.includes(k));
    if (zoneColumn < 0 && opts.timezone === undefined) {
      source.close();
      throw new UsageError(
        `${opts.prospects}: no time-zone column (timezone, time zone, tz) and no --timezone`,
        `Its columns are: ${source.header.join(', ')}`,
      );
    }
    const now = ctx.clock.now();
    const cache = new Map<string, ProspectWindows>();
    let warned = 0;
    let rows = 0;
    async function* previews(): AsyncGenerator<Row> {
      for await (const record of source.rows) {
        rows++;
        const email = record.fields[emailColumn]?.trim() ?? '';
        const given = (zoneColumn >= 0 ? record.fields[zoneColumn]?.trim() : '') || opts.timezone || '';
        // Worked out once per zone, by its canonical spelling (europe/paris and Europe/Paris are one zone).
        const zone = !given ? '' : canonicalTimeZone(given);
        const cacheKey = zone ?? `invalid:${given}`;
        let preview = cache.get(cacheKey);
        if (!preview) {
          preview =
            zone === ''
              ? { warnings: ['no time zone (give --timezone for rows without one)'] }
              : zone === undefined
                ? { warnings: [`"${visible(given)}" is not an IANA time zone`] }
                : prospectWindows(week, scheduleZone, zone, now);
          if (cache.size < maxCachedZones) cache.set(cacheKey, preview);
        }
        if (preview.warnings.length) warned++;
        yield { row: record.row, email, timezone: given, ...preview };
      }
    }
    return listResult(
      previews(),
      [
        { header: 'ROW', value: (r) => r.row },
        { header: 'EMAIL', value: (r) => r.email, key: true },
        { header: 'ZONE', value: (r) => r.timezone },
        { header: 'FIRST WINDOW (LOCAL)', value: (r) => r.first?.local ?? '' },
        { header: `IN ${scheduleZone}`, value: (r) => r.first?.schedule ?? '', drop: 1 },
        { header: 'WARNINGS', value: (r) => r.warnings.join('; '), lines: (r) => r.warnings },
      ],
      { raw: (r) => r, emptyMessage: `${opts.prospects}: no rows` },
      {
        after: () =>
          warned
            ? {
                exitCode: ExitCode.partial,
                failing: `${formatCount(warned)} of ${formatCount(rows)} prospects have a warning`,
                hint: `Give them a schedule in their own zone (outreach schedules create --timezone ...), or move the windows.`,
              }
            : {},
      },
    );
  },
});
