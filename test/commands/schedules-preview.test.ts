// schedules preview through the real CLI against the sandbox's "Business hours (New York)" (58964: weekdays
// 09:00-12:00 and 13:00-17:00), the clock pinned to Monday 2026-03-02 12:00 UTC (07:00 in New York), six days before
// the United States move to summer time (Europe moves on 2026-03-29; Tokyo and Phoenix never do).
import { writeFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-schedule-preview-');
  writeFileSync(
    join(dir, 'leads.csv'),
    'Email,First Name,Time Zone\n' +
      'ny@x.example,Ann,America/New_York\n' +
      'chi@x.example,Bo,America/Chicago\n' +
      'ldn@x.example,Cy,Europe/London\n' +
      'tyo@x.example,Di,Asia/Tokyo\n' +
      'phx@x.example,Ed,America/Phoenix\n' +
      'none@x.example,Flo,\n' +
      'mars@x.example,Gus,Mars/Base\n',
  );
});
afterEach(() => sb.close());

const monday = () => Date.UTC(2026, 2, 2, 12, 0);
const preview = (...args: string[]) =>
  run(['schedules', 'preview', '58964', ...args], { env: sb.env, cwd: dir, now: monday });
const moveEarlier =
  "daylight-saving change in America/New_York (the schedule's zone) on 2026-03-08: windows move 1 h earlier in local time from then";
// London: the United States moves first, Europe three weeks later, and the gap is as it was.
const londonMoves = `${moveEarlier}, and back from the change in Europe/London (the prospect's zone) on 2026-03-29`;

describe('schedules preview', () => {
  it("each prospect's first window in their zone and the schedule's, with warnings; exit 3", async () => {
    const result = await preview('--prospects', 'leads.csv', '--json');
    expect(result.code).toBe(3);
    const rows = JSON.parse(result.stdout) as Array<{
      email: string;
      first?: { local: string; schedule: string; opensAt: string };
      warnings: string[];
    }>;
    const by = Object.fromEntries(rows.map((r) => [r.email, r]));
    expect(by['ny@x.example']).toEqual({
      row: 2,
      email: 'ny@x.example',
      timezone: 'America/New_York',
      first: {
        schedule: 'Mon 2026-03-02 09:00-12:00',
        local: 'Mon 2026-03-02 09:00-12:00',
        opensAt: '2026-03-02T14:00:00.000Z',
        closesAt: '2026-03-02T17:00:00.000Z',
        localOpensAt: '2026-03-02T09:00:00-05:00',
      },
      warnings: [],
    });
    // Tokyo's clock, ahead of UTC, with its own offset.
    expect(by['tyo@x.example']!.first).toMatchObject({ localOpensAt: '2026-03-02T23:00:00+09:00' });
    // Chicago moves on the same night as New York: nothing shifts.
    expect(by['chi@x.example']!.first!.local).toBe('Mon 2026-03-02 08:00-11:00');
    expect(by['chi@x.example']!.warnings).toEqual([]);
    expect(by['ldn@x.example']!.first!.local).toBe('Mon 2026-03-02 14:00-17:00');
    expect(by['ldn@x.example']!.warnings).toEqual([
      'sends Mon 2026-03-02 18:00-22:00 local, outside 07:00-20:00',
      londonMoves,
    ]);
    expect(by['tyo@x.example']!.warnings).toEqual([
      'sends Mon 2026-03-02 23:00-Tue 2026-03-03 02:00 local, outside 07:00-20:00',
      moveEarlier,
    ]);
    expect(by['phx@x.example']!.first!.local).toBe('Mon 2026-03-02 07:00-10:00');
    // Phoenix keeps its clock: from New York's change its windows open at 06:00, said now (the 30 days ahead).
    expect(by['phx@x.example']!.warnings).toEqual([
      'sends Mon 2026-03-09 06:00-09:00 local, outside 07:00-20:00',
      moveEarlier,
    ]);
    expect(by['none@x.example']!.warnings).toEqual(['no time zone (give --timezone for rows without one)']);
    expect(by['mars@x.example']!.warnings).toEqual(['column "Time Zone": "Mars/Base" is not an IANA time zone']);
    expect(result.stderr).toContain(
      'error: 5 of 7 prospects have a warning\n' +
        'hint: Write their zones as IANA names (such as America/New_York). Give --timezone for the rows without a zone. ' +
        'Give them a schedule in their own zone (outreach schedules create --timezone ...), or move the windows.\n',
    );
  });

  it('--timezone fills rows without a zone; a file of prospects in the schedule zone is exit 0', async () => {
    writeFileSync(join(dir, 'ny.csv'), 'email\nann@x.example\n');
    const result = await preview('--prospects', 'ny.csv', '--timezone', 'America/New_York');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      '2\tann@x.example\tAmerica/New_York\tMon 2026-03-02 09:00-12:00\tMon 2026-03-02 09:00-12:00\t' +
        '2026-03-02T14:00:00.000Z\t2026-03-02T17:00:00.000Z\t2026-03-02T09:00:00-05:00\t\n',
    );
    expect(result.stderr).toBe(
      'Schedule 58964 sends in America/New_York; its first window from now: Mon 2026-03-02 09:00-12:00.\n',
    );
  });

  it('refuses a file without a zone column and no --timezone, a bad --timezone, and an unknown schedule (exit 2)', async () => {
    writeFileSync(join(dir, 'plain.csv'), 'email,name\nann@x.example,Ann\n');
    const noZone = await preview('--prospects', 'plain.csv');
    expect(noZone.code).toBe(2);
    expect(noZone.stderr).toBe(
      'error: plain.csv: no time-zone column (timezone, time zone, tz) and no --timezone\n' +
        'hint: Its columns are: email, name. --timezone-column NAME names the column.\n',
    );
    writeFileSync(join(dir, 'names.csv'), 'Name,Contact TZ\nAnn,Europe/Paris\n');
    const noEmail = await preview('--prospects', 'names.csv', '--timezone-column', 'contact tz');
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toBe(
      'error: names.csv: no email column (email, email address)\n' +
        'hint: Its columns are: Name, Contact TZ. --email-column NAME names it.\n',
    );
    const noSuch = await preview('--prospects', 'names.csv', '--timezone-column', 'Zone');
    expect(noSuch.stderr).toBe(
      'error: --timezone-column Zone: names.csv has no such column\nhint: Its columns are: Name, Contact TZ\n',
    );
    const badZone = await preview('--prospects', 'plain.csv', '--timezone', 'Europe/Nowhere');
    expect(badZone.stderr).toContain('error: --timezone Europe/Nowhere: not an IANA time zone');
    const city = await preview('--prospects', 'plain.csv', '--timezone', 'Paris');
    expect([city.code, city.stderr]).toEqual([
      2,
      'error: --timezone Paris: not an IANA time zone (e.g. America/New_York)\nhint: Did you mean Europe/Paris?\n',
    ]);
    const unknown = await run(['schedules', 'preview', '999', '--prospects', 'leads.csv'], { env: sb.env, cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: no schedule 999\n');
  });

  it('steps calendar days across a daylight-saving change, and names the day of the change at any hour', async () => {
    const created = await run(
      [
        'schedules',
        'create',
        '--name',
        'Sundays',
        '--timezone',
        'America/New_York',
        '--day',
        'sun=10:00-11:00',
        '--json',
      ],
      { env: sb.env, cwd: dir },
    );
    const id = String(JSON.parse(created.stdout).id);
    writeFileSync(join(dir, 'one.csv'), 'email,tz\nny@x.example,America/New_York\nldn@x.example,europe/london\n');
    // Saturday 2026-03-07 23:30 in New York; the clocks go forward at 02:00 on Sunday.
    const saturdayNight = () => Date.UTC(2026, 2, 8, 4, 30);
    const result = await run(['schedules', 'preview', id, '--prospects', 'one.csv', '--json'], {
      env: sb.env,
      cwd: dir,
      now: saturdayNight,
    });
    const rows = JSON.parse(result.stdout) as Array<{
      first: { local: string; opensAt: string };
      warnings: string[];
      timezone: string;
    }>;
    expect(rows[0]!.first).toMatchObject({ local: 'Sun 2026-03-08 10:00-11:00', opensAt: '2026-03-08T14:00:00.000Z' });
    expect(rows[1]!.first.local).toBe('Sun 2026-03-08 14:00-15:00');
    // Every window is after the United States' change: London's first moves when Europe's clocks do.
    expect(rows[1]!.warnings).toEqual([
      "daylight-saving change in Europe/London (the prospect's zone) on 2026-03-29: windows move 1 h later in local time from then",
    ]);
    // At 05:00 UTC on the Monday before, the change is still named on its own day.
    const early = await run(['schedules', 'preview', '58964', '--prospects', 'one.csv', '--json'], {
      env: sb.env,
      cwd: dir,
      now: () => Date.UTC(2026, 2, 2, 5, 0),
    });
    expect((JSON.parse(early.stdout) as Array<{ warnings: string[] }>)[1]!.warnings).toContain(londonMoves);
  });

  it("warns of a window open across a daylight-saving change: shorter in the schedule's zone, a clock that moves in the prospect's", async () => {
    const create = async (name: string, zone: string, day: string) => {
      const argv = ['schedules', 'create', '--name', name, '--timezone', zone, '--day', day, '--json'];
      return String(JSON.parse((await run(argv, { env: sb.env, cwd: dir })).stdout).id);
    };
    writeFileSync(join(dir, 'two.csv'), 'email,tz\nldn@x.example,Europe/London\nny@x.example,America/New_York\n');
    // Saturday 2027-03-20: Europe's clocks go forward at 01:00 UTC on Sunday the 28th.
    const at = { env: sb.env, cwd: dir, now: () => Date.UTC(2027, 2, 20, 12, 0) };
    const rowsOf = async (id: string) => {
      const result = await run(['schedules', 'preview', id, '--prospects', 'two.csv', '--json'], at);
      expect(result.code).toBe(3);
      return JSON.parse(result.stdout) as Array<{ warnings: string[] }>;
    };
    // Sunday 01:00-03:00 in London is open one hour on the 28th, whoever it sends to: its 01:00 never comes.
    const night = await rowsOf(await create('Night', 'Europe/London', 'sun=01:00-03:00'));
    const shorter =
      "the window Sun 2027-03-28 02:00-03:00 (the schedule's time) spans the daylight-saving change in " +
      'Europe/London: it is open 1 h, not 2 h';
    expect(night[0]!.warnings).toContain(shorter);
    expect(night[1]!.warnings).toContain(shorter);
    // Sunday 09:30-10:30 in Tokyo (no daylight saving) is 00:30-01:30 UTC: London's clocks go forward meanwhile.
    const tokyo = await rowsOf(await create('Tokyo', 'Asia/Tokyo', 'sun=09:30-10:30'));
    expect(tokyo[0]!.warnings).toContain(
      'the window Sun 2027-03-28 00:30-02:30 local spans the daylight-saving change in Europe/London: local clocks go ' +
        '1 h forward while it is open',
    );
    expect(tokyo[1]!.warnings.some((w) => w.includes('spans'))).toBe(false);
  });

  it('reads the gap at the windows: Chicago changes an hour after New York, which no window sees, at any hour', async () => {
    writeFileSync(join(dir, 'chi.csv'), 'email,tz\nchi@x.example,America/Chicago\n');
    // 07:30 UTC: New York has changed on 2026-03-08 at this hour, Chicago not yet.
    for (const hour of [5, 7.5, 12, 23]) {
      const result = await run(['schedules', 'preview', '58964', '--prospects', 'chi.csv'], {
        env: sb.env,
        cwd: dir,
        now: () => Date.UTC(2026, 2, 2) + hour * 3_600_000,
      });
      expect(result.code).toBe(0);
    }
  });

  it('reads EST and MST as IANA does, fixed all year, and says what a US region with daylight saving is (exit 3)', async () => {
    writeFileSync(join(dir, 'fixed.csv'), 'email,tz\ne@x.example,Est\nm@x.example,mst\nd@x.example,EST5EDT\n');
    const result = await preview('--prospects', 'fixed.csv', '--json');
    expect(result.code).toBe(3);
    const rows = JSON.parse(result.stdout) as Array<{ timezone: string; warnings: string[] }>;
    expect(rows[0]!.warnings[0]).toBe(
      'EST is UTC-05:00 all year; US Eastern time, which moves to EDT in summer, is America/New_York',
    );
    expect(rows[1]!.warnings[0]).toBe(
      "MST is UTC-07:00 all year (Arizona's time); the rest of US Mountain time, which moves to MDT in summer, is America/Denver",
    );
    // EST5EDT follows the United States' changes: the schedule's zone's, so nothing moves.
    expect(rows[2]!.warnings).toEqual([]);
  });

  it('refuses a zone abbreviation ICU reads as another place (BST is Asia/Dhaka to it, not London)', async () => {
    writeFileSync(join(dir, 'abbr.csv'), 'email,tz\nuk@x.example,BST\nin@x.example,IST\n');
    const result = await preview('--prospects', 'abbr.csv', '--json');
    expect(result.code).toBe(3);
    const rows = JSON.parse(result.stdout) as Array<{ warnings: string[] }>;
    expect(rows.map((r) => r.warnings)).toEqual([
      ['column "tz": "BST" is not an IANA time zone'],
      ['column "tz": "IST" is not an IANA time zone'],
    ]);
    // Only zones to fix: the hint says so, and nothing about the schedule's windows.
    expect(result.stderr).toContain(
      'error: 2 of 2 prospects have a warning\nhint: Write their zones as IANA names (such as America/New_York).\n',
    );
    const flag = await preview('--prospects', 'abbr.csv', '--timezone', 'PST');
    expect(flag.stderr).toContain('error: --timezone PST: not an IANA time zone');
  });

  it("reads a file's Windows zone names as the IANA zones they mean, told once each; a typed one is refused, named", async () => {
    writeFileSync(
      join(dir, 'outlook.csv'),
      'email,Time Zone\n' +
        'ny@x.example,Eastern Standard Time\n' +
        'ny2@x.example,eastern standard time\n' +
        'ber@x.example,W. Europe Standard Time\n' +
        'utc@x.example,UTC-08\n' +
        'no@x.example,Nowhere Standard Time\n',
    );
    const result = await preview('--prospects', 'outlook.csv', '--json');
    expect(result.code).toBe(3);
    const rows = JSON.parse(result.stdout) as Array<{
      email: string;
      timezone: string;
      first?: { local: string };
      warnings: string[];
    }>;
    // As written in the file; worked out in New York's zone, Berlin's, and a fixed UTC-8.
    expect(rows.map((r) => [r.email, r.timezone, r.first?.local])).toEqual([
      ['ny@x.example', 'Eastern Standard Time', 'Mon 2026-03-02 09:00-12:00'],
      ['ny2@x.example', 'eastern standard time', 'Mon 2026-03-02 09:00-12:00'],
      ['ber@x.example', 'W. Europe Standard Time', 'Mon 2026-03-02 15:00-18:00'],
      ['utc@x.example', 'UTC-08', undefined],
      ['no@x.example', 'Nowhere Standard Time', undefined],
    ]);
    // Said once each on stderr, also under --json: the rows keep the name as written. A fixed offset by Windows' name
    // is an offset, refused as one with its IANA form.
    expect(rows[3]).toMatchObject({
      warnings: [expect.stringContaining('"UTC-08" is not an IANA time zone (UTC-08 is Etc/GMT+8')],
    });
    expect(result.stderr.split('\n').filter((line) => line.includes("Windows' name"))).toEqual([
      '"Eastern Standard Time" is Windows\' name for America/New_York: its rows are worked out in that zone',
      '"W. Europe Standard Time" is Windows\' name for Europe/Berlin: its rows are worked out in that zone',
    ]);
    // Typed, a zone is IANA's: the one the name means is said, to give instead.
    const flag = await preview('--prospects', 'outlook.csv', '--timezone', 'Pacific Standard Time');
    expect([flag.code, flag.stderr]).toEqual([
      2,
      'error: --timezone Pacific Standard Time: not an IANA time zone (e.g. America/New_York)\n' +
        'hint: "Pacific Standard Time" is Windows\' name for America/Los_Angeles\n',
    ]);
  });

  it('a file with a header and no rows is exit 2, said as an import says it', async () => {
    writeFileSync(join(dir, 'header.csv'), 'Email,Time Zone\n');
    const result = await preview('--prospects', 'header.csv');
    expect([result.code, result.stdout, result.stderr]).toEqual([
      2,
      '',
      'error: header.csv: no data rows under the header\nhint: Give a file with one prospect on each line under the header (a time-zone column, or --timezone).\n',
    ]);
  });

  it('on an 80-column terminal the zone and the local window are whole; the ISO start stays in data', async () => {
    const table = await run(['schedules', 'preview', '58964', '--prospects', 'leads.csv'], {
      env: sb.env,
      cwd: dir,
      now: monday,
      stdoutIsTTY: true,
      columns: 80,
    });
    const lines = stripVTControlCharacters(table.stdout).split('\n');
    expect(lines[0]).toMatch(/^ROW\s+EMAIL\s+TIMEZONE\s+FIRST WINDOW \(LOCAL\)\s+WARNINGS\s*$/);
    expect(lines.find((l) => l.includes('tyo@x.example'))).toContain('Mon 2026-03-02 23:00-Tue 2026-03-03 02:00');
    expect(lines.find((l) => l.includes('ny@x.example'))).toContain('America/New_York');
    expect(lines.find((l) => l.includes('phx@x.example'))).toContain('America/Phoenix');
    expect((await preview('--prospects', 'leads.csv', '--csv')).stdout.split('\n')[0]).toContain('opensAt');
  });

  it('--email-column and --timezone-column name the columns; stdin is read with -; the CSV header is camelCase', async () => {
    const csv = 'Work Email,Contact TZ\nann@x.example,America/New_York\n';
    const result = await run(
      ['schedules', 'preview', '58964', '--prospects', '-', '--email-column', 'Work Email'].concat([
        '--timezone-column',
        'Contact TZ',
        '--csv',
      ]),
      { env: sb.env, cwd: dir, now: monday, stdin: csv },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'row,email,timezone,firstWindowLocal,firstWindowSchedule,opensAt,closesAt,localOpensAt,warnings\n' +
        '2,ann@x.example,America/New_York,Mon 2026-03-02 09:00-12:00,Mon 2026-03-02 09:00-12:00,' +
        '2026-03-02T14:00:00.000Z,2026-03-02T17:00:00.000Z,2026-03-02T09:00:00-05:00,\n',
    );
  });

  it('lists a row it cannot read with why; a file that stops midway stops the command before any output', async () => {
    writeFileSync(join(dir, 'wide.csv'), 'email,tz\nann@x.example,America/New_York,extra\nbo@x.example,Asia/Tokyo\n');
    const wide = await preview('--prospects', 'wide.csv', '--json');
    expect(wide.code).toBe(3);
    expect(JSON.parse(wide.stdout)[0]).toEqual({
      row: 2,
      email: 'ann@x.example',
      timezone: 'America/New_York',
      first: null,
      warnings: ['not read: expected 2 columns, found 3'],
    });
    expect(wide.stderr).toContain('error: 2 of 2 prospects have a warning (1 of them a row that could not be read)\n');
    writeFileSync(
      join(dir, 'quote.csv'),
      'email,tz\nann@x.example,America/New_York\n"bo@x.example,Asia/Tokyo\nc@x.example,UTC\n',
    );
    const quote = await preview('--prospects', 'quote.csv', '--json');
    expect(quote.code).toBe(2);
    expect(quote.stdout).toBe('');
    expect(quote.stderr).toMatch(/^error: quote\.csv: line 3: a quoted field opens here and is never closed/);
  });
});
