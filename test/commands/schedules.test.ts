// schedules create / list: the builder driven by keystrokes, flags, files, and the checks before sending.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, usageHint } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { weekPreview } from '../../src/schedule/preview.js';
import { parseWindows } from '../../src/schedule/week.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-schedules-');
});
afterEach(() => sb.close());

const created = () => state(sb).schedules.slice(2);
const posts = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/schedules');
const nine = (h: number, m = 0) => ({ hour: h, minute: m });

describe('schedules create, interactive', () => {
  it('goes from answers to the request body, with a wrong window typed and corrected', async () => {
    const answers = [
      'Team hours', // name
      'berl', // zone: typed to search, the first match taken
      'off', // Sunday
      'type', // Monday: type windows...
      '09:00-12:00, 11:00-17:00', // ...overlapping: refused...
      '09:00-12:00, 13:00-17:00', // ...and corrected
      'same', // Tuesday
      'same', // Wednesday
      'same', // Thursday
      'type', // Friday: its own windows
      '09:00-13:00',
      'off', // Saturday
      true, // default
      true, // confirm
    ];
    const result = await run(['schedules', 'create', '--save', 'team.json'], {
      env: { ...sb.env, TZ: 'America/New_York' },
      cwd: dir,
      answers,
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    expect(result.stderr).toContain('Monday: windows 09:00-12:00 and 11:00-17:00 overlap');
    expect(result.code).toBe(0);
    const body = JSON.parse(readFileSync(join(dir, 'team.json'), 'utf8'));
    const weekday = [
      { start: nine(9), end: nine(12) },
      { start: nine(13), end: nine(17) },
    ];
    expect(body).toEqual({
      name: 'Team hours',
      timezone: 'Europe/Berlin',
      timeSlots: [
        { day: 0, slots: [] },
        { day: 1, slots: weekday },
        { day: 2, slots: weekday },
        { day: 3, slots: weekday },
        { day: 4, slots: weekday },
        { day: 5, slots: [{ start: nine(9), end: nine(13) }] },
        { day: 6, slots: [] },
      ],
      isDefault: true,
    });
    expect(created()).toEqual([{ ...body, id: 58966, createdAt: expect.any(String) }]);
    expect(result.stderr).toContain(
      "outreach schedules create --name 'Team hours' --timezone Europe/Berlin --day mon=09:00-12:00,13:00-17:00 --day tue=09:00-12:00,13:00-17:00 --day wed=09:00-12:00,13:00-17:00 --day thu=09:00-12:00,13:00-17:00 --day fri=09:00-13:00 --default",
    );
    expect(result.stderr).toMatch(/Monday +09:00-12:00, 13:00-17:00 +03:00-06:00, 07:00-11:00/);
  });
});

describe('schedules create, from flags and files', () => {
  it('builds the body from --day flags, days not given are off', async () => {
    const result = await run(
      [
        'schedules',
        'create',
        '--name',
        'Nights',
        '--timezone',
        'Asia/Kolkata',
        '--day',
        'fri=20:00-23:59',
        '--day',
        'Mon=08:30-09:30',
      ],
      { env: sb.env, cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('58966\n');
    const [schedule] = created();
    expect(schedule!.timeSlots.map((d) => d.slots.length)).toEqual([0, 1, 0, 0, 0, 1, 0]);
    expect(schedule!.timeSlots[5]!.slots[0]).toEqual({ start: nine(20), end: nine(23, 59) });
  });

  it.each([
    [['--day', 'mon=09:00-08:00'], 'error: Monday, window 09:00-08:00: the start must be before the end'],
    [['--day', 'tue=09:00-12:00,11:30-13:00'], 'error: Tuesday: windows 09:00-12:00 and 11:30-13:00 overlap'],
    [
      ['--day', 'wed=09:00-24:00'],
      'error: Wednesday, window 09:00-24:00: 24:00 is not a time the API takes; end the window at 23:59',
    ],
    [['--day', 'thu=25:00-26:00'], 'error: Thursday, window 25:00-26:00: hour 25 is not between 0 and 23'],
    [['--day', 'fri=09:61-10:00'], 'error: Friday, window 09:61-10:00: minute 61 is not between 0 and 59'],
    [['--day', 'mon=9-5'], 'error: Monday, window 9-5: "9" is not a time like 09:30'],
    [
      ['--day', 'funday=09:00-10:00'],
      'error: --day "funday=09:00-10:00": write it as mon=09:00-12:00,13:00-17:00 (days sun..sat)',
    ],
    [['--day', 'mon=09:00-10:00', '--day', 'monday=11:00-12:00'], 'error: --day: Monday is given twice'],
  ])('refuses %j naming the day and window, sending nothing', async (days, message) => {
    const result = await run(['schedules', 'create', '--name', 'X', '--timezone', 'UTC', ...days], {
      env: sb.env,
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(posts()).toHaveLength(0);
  });

  it('refuses an unknown zone but takes those Intl does not list', async () => {
    const bad = await run(['schedules', 'create', '--name', 'X', '--timezone', 'Mars/Olympus'], {
      env: sb.env,
      cwd: dir,
    });
    expect(bad.stderr).toBe(
      'error: timezone "Mars/Olympus" is not an IANA time zone (e.g. Europe/Berlin)\n' + usageHint,
    );
    // Windows' name for a zone: the IANA one to give is named.
    const windows = await run(['schedules', 'create', '--name', 'X', '--timezone', 'Romance Standard Time'], {
      env: sb.env,
      cwd: dir,
    });
    expect(windows.stderr).toBe(
      'error: timezone "Romance Standard Time" is not an IANA time zone ("Romance Standard Time" is Windows\' name ' +
        'for Europe/Paris)\n' +
        usageHint,
    );
    for (const zone of ['UTC', 'Asia/Kolkata', 'Europe/Kyiv'])
      expect(
        (
          await run(['schedules', 'create', '--name', zone, '--timezone', zone, '--day', 'mon=09:00-17:00', '-q'], {
            env: sb.env,
            cwd: dir,
          })
        ).code,
      ).toBe(0);
  });

  it('stores the zone as the IANA database spells it', async () => {
    const result = await run(
      ['schedules', 'create', '--name', 'Lower', '--timezone', 'america/new_york', '--day', 'mon=09:00-17:00'],
      { env: sb.env, cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(state(sb).schedules.find((s) => s.name === 'Lower')!.timezone).toBe('America/New_York');
    expect(result.stderr).toContain('--timezone America/New_York');
  });

  it('fixes only the letter case of a zone, never renaming a current zone to an old one', async () => {
    const { canonicalTimeZone } = await import('../../src/schedule/week.js');
    expect(
      [
        'europe/kyiv',
        'Europe/Kyiv',
        'ASIA/KOLKATA',
        'Asia/Ho_Chi_Minh',
        'america/port-au-prince',
        'utc',
        'etc/gmt+5',
      ].map(canonicalTimeZone),
    ).toEqual([
      'Europe/Kyiv',
      'Europe/Kyiv',
      'Asia/Kolkata',
      'Asia/Ho_Chi_Minh',
      'America/Port-au-Prince',
      'UTC',
      'Etc/GMT+5',
    ]);
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
  });

  it('reads the body from a file and checks it: 7 days 0-6 without repeats', async () => {
    const week = Array.from({ length: 7 }, (_, day) => ({
      day,
      slots: day === 1 ? [{ start: nine(9), end: nine(17) }] : [],
    }));
    writeFileSync(join(dir, 'ok.json'), JSON.stringify({ name: 'File', timezone: 'Europe/Paris', timeSlots: week }));
    expect((await run(['schedules', 'create', '--file', 'ok.json', '-q'], { env: sb.env, cwd: dir })).code).toBe(0);
    writeFileSync(
      join(dir, 'six.json'),
      JSON.stringify({ name: 'File', timezone: 'Europe/Paris', timeSlots: week.slice(0, 6) }),
    );
    expect((await run(['schedules', 'create', '--file', 'six.json'], { env: sb.env, cwd: dir })).stderr).toContain(
      'error: --file: timeSlots: timeSlots must have exactly 7 items, one per weekday',
    );
    writeFileSync(
      join(dir, 'twice.json'),
      JSON.stringify({
        name: 'File',
        timezone: 'Europe/Paris',
        timeSlots: [...week.slice(0, 6), { day: 1, slots: [] }],
      }),
    );
    expect((await run(['schedules', 'create', '--file', 'twice.json'], { env: sb.env, cwd: dir })).stderr).toBe(
      'error: timeSlots: Monday (day 1) appears twice\n' + usageHint,
    );
    expect(posts()).toHaveLength(1);
    expect(
      (await run(['schedules', 'create', '--file', 'ok.json', '--default', '-q'], { env: sb.env, cwd: dir })).code,
    ).toBe(0);
    expect(created()[1]).toMatchObject({ name: 'File', isDefault: true });
  });

  it('needs --name and --timezone when it cannot ask', async () => {
    const result = await run(['schedules', 'create'], { env: sb.env, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --name is required');
  });
});

describe('schedules in the sandbox', () => {
  it('keeps exactly one default, and lists them', async () => {
    await run(
      [
        'schedules',
        'create',
        '--name',
        'New default',
        '--timezone',
        'UTC',
        '--day',
        'mon=09:00-10:00',
        '--default',
        '-q',
      ],
      { env: sb.env, cwd: dir },
    );
    expect(
      state(sb)
        .schedules.filter((s) => s.isDefault)
        .map((s) => s.name),
    ).toEqual(['New default']);
    const list = await run(['schedules', 'list'], { env: sb.env, cwd: dir });
    expect(list.stdout.split('\n')[2]).toBe('58966\tNew default\tUTC\tyes\tMon 09:00-10:00');
  });

  it('refuses a body the rules forbid, even from a raw call', async () => {
    const week = Array.from({ length: 7 }, (_, day) => ({ day, slots: [] as unknown[] }));
    week[2]!.slots = [{ start: nine(10), end: nine(9) }];
    const res = await sb.request('POST', '/v1/schedules', { name: 'x', timezone: 'UTC', timeSlots: week });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Tuesday, window 10:00-09:00: the start must be before the end');
  });
});

describe('week preview', () => {
  it('converts windows to the local zone on the real dates, across midnight', () => {
    const week = Array.from({ length: 7 }, () => [] as ReturnType<typeof parseWindows>);
    week[1] = parseWindows('09:00-17:00', 'Monday');
    const now = Date.UTC(2026, 10, 22, 12); // a Sunday in November: Berlin UTC+1, New York UTC-5
    expect(weekPreview(week, 'Europe/Berlin', 'America/New_York', now)[1]).toEqual({
      day: 'Monday',
      schedule: '09:00-17:00',
      local: '03:00-11:00',
    });
    expect(weekPreview(week, 'Europe/Berlin', 'Pacific/Auckland', now)[1]).toEqual({
      day: 'Monday',
      schedule: '09:00-17:00',
      local: '21:00-Tue 05:00',
    });
  });

  it("uses each date's own offsets in a week with a daylight-saving change", () => {
    const week = Array.from({ length: 7 }, () => parseWindows('09:00-17:00', 'any day'));
    // Thursday 22 October 2026: Berlin leaves summer time on Sunday the 25th, New York only on 1 November.
    const rows = weekPreview(week, 'Europe/Berlin', 'America/New_York', Date.UTC(2026, 9, 22, 12));
    expect(rows[4]).toEqual({ day: 'Thursday', schedule: '09:00-17:00', local: '03:00-11:00' });
    expect(rows[1]).toEqual({ day: 'Monday', schedule: '09:00-17:00', local: '04:00-12:00' });
  });
});
