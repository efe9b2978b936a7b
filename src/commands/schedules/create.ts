import { resolve } from 'node:path';
import { valueResult } from '../../cli/result.js';
import { renamed, flag, ValueProblem } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import { UsageError } from '../../errors.js';
import { writeOutput } from '../../io/output-file.js';
import { scheduleBody, type ScheduleBody } from '../../api/contract/schedules.js';
import { unwrapRecord } from '../../api/contract/schema.js';
import { createSchedule } from '../../api/resources/schedules.js';
import { loadWindowsZones } from '../../schedule/windows-zone.js';
import {
  buildBody,
  checkedSchedule,
  dayIndex,
  dayNames,
  equivalentCommand,
  parseWindows,
  WindowError,
  type Window,
} from '../../schedule/week.js';
import { buildInteractively } from './builder.js';
import { readJson } from '../../io/structured-file.js';

async function fromFile(ctx: CommandContext, file: string): Promise<ScheduleBody> {
  const json = await readJson(file, ctx, `--file: ${file}`);
  const parsed = scheduleBody.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new UsageError(
      `--file: ${issue.path.join('.') || 'body'}: ${issue.message}`,
      'The shape is {name, timezone, timeSlots: [{day: 0-6, slots: [{start: {hour, minute}, end: {hour, minute}}]}] x7, isDefault}.',
    );
  }
  return parsed.data;
}

function fromFlags(name: string, timezone: string, days: string[], isDefault: boolean): ScheduleBody {
  const week: Window[][] = Array.from({ length: 7 }, () => []);
  const given = new Set<number>();
  for (const spec of days) {
    const at = spec.indexOf('=');
    const day = at > 0 ? dayIndex(spec.slice(0, at)) : undefined;
    if (day === undefined)
      throw new UsageError(`--day "${spec}": write it as mon=09:00-12:00,13:00-17:00 (days sun..sat)`);
    if (given.has(day)) throw new UsageError(`--day: ${dayNames[day]} is given twice`);
    given.add(day);
    week[day] = parseWindows(spec.slice(at + 1), dayNames[day]!);
  }
  return buildBody(name, timezone, week, isDefault);
}

export default defineVerb({
  agent: { kind: 'write', idempotent: false },
  description: [
    "On a terminal (without --no-input) it asks for the name, the time zone (type to search), each weekday's windows",
    '("same as the previous day" is one key), whether it becomes the default, then shows the week in the schedule\'s',
    'zone and yours and asks to confirm; it ends by printing the equivalent command. Otherwise give --name, --timezone',
    'and --day mon=09:00-12:00,13:00-17:00 for each working day (days not given are off), or --file.',
    'Checked before sending: 7 days 0-6 without repeats, each start before its end, no overlapping windows, hours 0-23',
    'and minutes 0-59 (24:00 is refused: end at 23:59), a real IANA zone. Errors name the day and window; exit 2.',
  ].join('\n'),
  examples: [
    'schedules create --name "Business hours" --timezone America/New_York ' +
      '--day mon=09:00-12:00,13:00-17:00 --day tue=09:00-17:00 --default',
    'schedules create --file schedule.json',
    'schedules create --name Nights --timezone Asia/Kolkata --day fri=20:00-23:59 --save nights.json',
  ],
  flags: {
    name: flag.custom(
      'schedule name',
      (name) => {
        if (!name.trim()) throw new ValueProblem('must not be empty');
        return name.trim();
      },
      { value: 'name' },
    ),
    // --tz is what people type first (date, Python): taken too, unlisted.
    timezone: renamed(flag.text('IANA time zone, e.g. Europe/Berlin', { value: 'zone' }), 'tz'),
    day: flag.list('a weekday and its windows, e.g. mon=09:00-12:00,13:00-17:00', { value: 'day=windows' }),
    default: flag.bool('make it the default schedule for new sequences'),
    file: renamed(flag.text('the request body as JSON (or - for stdin)', { value: 'file' }), 'fromFile'),
    save: flag.text('also write the request body to a JSON file; - for stdout', { value: 'file' }),
  },
  async run(ctx, opts) {
    // A Windows zone name typed for --timezone is named in the refusal's hint.
    await loadWindowsZones();
    if (opts.save === '-' && ctx.output.machine)
      throw new UsageError('--save - and the machine output both go to stdout; give --save a file');
    let body: ScheduleBody | undefined;
    const anyFlag = opts.name || opts.timezone || opts.day.length;
    try {
      if (opts.file) {
        if (anyFlag)
          throw new UsageError('--file takes the whole schedule; give no --name, --timezone or --day with it');
        body = await fromFile(ctx, opts.file);
        if (opts.default) body.isDefault = true;
      } else if (anyFlag || !ctx.interactive) {
        if (!opts.name)
          throw new UsageError('--name is required (or run it on a terminal for the interactive builder)');
        if (!opts.timezone) throw new UsageError('--timezone is required, e.g. --timezone Europe/Berlin');
        body = fromFlags(opts.name, opts.timezone, opts.day, opts.default);
      } else {
        body = await buildInteractively(ctx, { isDefault: opts.default || undefined });
        if (!body) {
          ctx.info('Nothing created.');
          return;
        }
      }
      body = checkedSchedule(body);
    } catch (error) {
      if (error instanceof WindowError) throw new UsageError(error.message);
      throw error;
    }
    if (opts.save) {
      writeOutput(opts.save, ctx, `${JSON.stringify(body, null, 2)}\n`);
      // Said also under --json (whose stdout is the created schedule): a file was written.
      if (opts.save !== '-') ctx.note(`Saved the request body to ${resolve(ctx.cwd, opts.save)}`);
    }
    const created = await createSchedule(await ctx.http(), body);
    // The created schedule as the service sent it, out of its envelope (the answer's shape is not shown in spec.md).
    const said = `Created schedule "${body.name}"${created.id ? ` (id ${created.id})` : ''}.`;
    return valueResult(unwrapRecord(created.raw, 'id'), created.id ? `${created.id}\n` : '', {
      said: `${said} The same from a script:\n  ${equivalentCommand(body)}`,
    });
  },
});
