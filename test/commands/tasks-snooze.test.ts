// tasks snooze through the real CLI against an in-process sandbox: --until as a duration or a date-time with a zone,
// the call outcome, and the refusals (a time without a zone or in the past, a task already done).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { testTime } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(() => sb.close());

const tasks = (argv: string[]) => run(['tasks', ...argv], { env: sb.env });
const stored = (id: string) => state(sb).tasks.find((t) => t.taskId === id)!;
const inTwoDays = () => new Date(testTime.now() + 2 * 86_400_000).toISOString();

describe('tasks snooze', () => {
  it('snoozes for a duration: the task is due again then, and upcoming until', async () => {
    const result = await tasks(['snooze', 'tk000002', '--until', '2d']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: `Snoozed tk000002 until ${inTwoDays()}.\n` });
    expect(stored('tk000002')).toMatchObject({ dueDate: inTwoDays(), snoozedUntil: inTwoDays() });
    const got = await tasks(['get', 'tk000002', '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ taskId: 'tk000002', status: 'upcoming', dueDate: inTwoDays() });
  });

  it('takes a date-time with its zone, records a call outcome, and prints the task under --json', async () => {
    const result = await tasks([
      'snooze',
      'tk000001',
      '--until',
      '2026-12-01T10:00+01:00',
      '--outcome',
      'no-answer',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      taskId: 'tk000001',
      status: 'snoozed',
      snoozedUntil: '2026-12-01T09:00:00.000Z',
      callOutcome: 'No Answer',
    });
    expect(stored('tk000001').callOutcome).toBe('No Answer');
  });

  it('refuses a time without a zone, one in the past, and words that are not a time (exit 2), sending nothing', async () => {
    const cases: Array<[string, string]> = [
      ['2026-12-01T09:00', 'error: --until: "2026-12-01T09:00" is neither a duration nor a date-time with a zone'],
      ['tomorrow', 'error: --until: "tomorrow" is neither a duration nor a date-time with a zone'],
      ['2026-01-01T00:00:00Z', 'error: --until: 2026-01-01T00:00:00.000Z is not in the future'],
      ['2027-02-30T09:00Z', 'error: --until: "2027-02-30T09:00Z" is not a real date and time'],
      ['2027-04-31T10:00+02:00', 'error: --until: "2027-04-31T10:00+02:00" is not a real date and time'],
    ];
    for (const [until, message] of cases) {
      const result = await tasks(['snooze', 'tk000002', '--until', until]);
      expect({ until, code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
        until,
        code: 2,
        error: message,
      });
    }
    expect(sb.sandbox.requestLog.filter((r) => r.path.endsWith('/snooze'))).toEqual([]);
  });

  it('says why the service refused a task already completed', async () => {
    const result = await tasks(['snooze', 'tk000251', '--until', '1w']);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      'error: Task tk000251 was completed and cannot be snoozed (POST /v1/tasks/tk000251/snooze: HTTP 400, code 4000)',
    );
    expect(stored('tk000251').snoozedUntil).toBeUndefined();
  });
});

describe('tasks bulk-snooze', () => {
  it('snoozes the ids given until the time given, journals that time, and reports the tasks it could not snooze', async () => {
    const dir = (await import('../helpers/context.js')).tempDir('outreach-bulk-snooze-');
    const argv = [
      'bulk-snooze',
      'tk000001',
      'tk000251',
      'tk000003',
      '--until',
      '1w',
      '--yes',
      '--json',
      '--keep-journal',
    ];
    // A week from when the command starts (the job's waits move the test clock on).
    const inAWeek = new Date(testTime.now() + 7 * 86_400_000).toISOString();
    const result = await run(['tasks', ...argv], { env: sb.env, cwd: dir });
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 3, snoozed: 2, failed: 1, batches: 1 });
    expect([stored('tk000001').dueDate, stored('tk000003').dueDate]).toEqual([inAWeek, inAWeek]);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(summary.files.failed, 'utf8')).toContain('tk000251,task already completed,');
    const header = JSON.parse(readFileSync(summary.files.journal, 'utf8').split('\n')[0]!);
    expect(header).toMatchObject({ job: 'bulk-snooze', settings: { snoozeUntil: inAWeek } });
    expect(result.stderr).toBe(
      `Snoozed 2 of 3 task(s); 1 failed. Failures: ${summary.files.failed}\n` +
        'error: 1 of 3 task(s) were not snoozed\n' +
        `hint: Each row of ${summary.files.failed} says why; send them again with --file ${summary.files.failed}.\n`,
    );
  });

  it('needs --until, and takes it from the journal on --resume (exit 2 when given again)', async () => {
    const missing = await tasks(['bulk-snooze', 'tk000001', '--yes']);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([2, 'error: --until is required']);
    const resumed = await tasks(['bulk-snooze', '--resume', 'x.journal', '--until', '2d']);
    expect([resumed.code, resumed.stderr.split('\n')[0]]).toEqual([
      2,
      'error: --resume takes --until from the journal; give no --until',
    ]);
  });

  it('refuses to resume a snooze whose end has passed, saying how to snooze the rest anew (exit 2)', async () => {
    const { readFileSync, writeFileSync } = await import('node:fs');
    const dir = (await import('../helpers/context.js')).tempDir('outreach-bulk-snooze-');
    const first = await run(
      ['tasks', 'bulk-snooze', 'tk000001', '--until', '1h', '--yes', '--json', '--keep-journal'],
      {
        env: sb.env,
        cwd: dir,
      },
    );
    const { journal } = JSON.parse(first.stdout).files;
    // As if killed before the batch was accepted: the header and the plan only.
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    writeFileSync(journal, `${lines.filter((line, i) => i === 0 || line.includes('"planned"')).join('\n')}\n`);
    testTime.offset += 2 * 3_600_000;
    try {
      const resumed = await run(['tasks', 'bulk-snooze', '--resume', journal, '--yes'], { env: sb.env, cwd: dir });
      expect(resumed.code).toBe(2);
      expect(resumed.stderr.split('\n')[0]).toMatch(
        /^error: --resume: the snooze recorded in .+ ended at \S+; the tasks not yet snoozed would be snoozed into the past$/,
      );
      expect(resumed.stderr).toContain('hint: Snooze the rest anew: outreach tasks bulk-snooze --resume ');
    } finally {
      testTime.offset -= 2 * 3_600_000;
    }
  });
});
