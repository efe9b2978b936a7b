// tasks list / get / complete / bulk-skip / bulk-status through the real CLI against an in-process sandbox.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, run } from '../helpers/run.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-tasks-');
});
afterEach(() => sb.close());

const tasks = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['tasks', ...argv], { env: sb.env, cwd: dir, ...extra });
/** The ids of the first `count` open tasks, written to ids.txt one a line. */
function writeOpenTaskIds(count: number): string[] {
  const ids = state(sb)
    .tasks.filter((t) => !t.doneStatus)
    .slice(0, count)
    .map((t) => t.taskId);
  writeFileSync(join(dir, 'ids.txt'), `${ids.join('\n')}\n`);
  return ids;
}
const skipPosts = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/tasks/bulk-skip');
const status = (id: string) => state(sb).tasks.find((t) => t.taskId === id)!.doneStatus;

describe('tasks list', () => {
  it('tells a person at a terminal that there are more pages, and a script nothing', async () => {
    const table = await tasks(['list', '--page', '2', '--page-size', '100'], { stdoutIsTTY: true });
    expect(table.code).toBe(0);
    expect(table.stderr).toBe('Page 2 of 3: --page 3 for the next, --all for every task.\n');
    const last = await tasks(['list', '--page', '3', '--page-size', '100'], { stdoutIsTTY: true });
    expect(last.stderr).toBe('');
    const piped = await tasks(['list', '--page', '2', '--page-size', '100']);
    expect({ stderr: piped.stderr, lines: piped.stdout.trim().split('\n').length }).toEqual({ stderr: '', lines: 100 });
  });

  it('prints one page as TSV: id, type, status, due, title, sequence, assignee, priority', async () => {
    const result = await tasks([
      'list',
      '--status',
      'overdue',
      '--type',
      'call',
      '--page-size',
      '2',
      '--sort-by',
      'dueDate',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]!.split('\t')).toEqual([
      expect.stringMatching(/^tk\d{6}$/),
      'call',
      'overdue',
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expect.stringMatching(/^Call /),
      expect.any(String),
      expect.any(String),
      expect.stringMatching(/^(urgent|high|medium|low)$/),
    ]);
  });

  it('walks every page with --all, stops at --limit, and prints one JSON array with --json', async () => {
    expect((await tasks(['list', '--all', '--status', 'overdue'])).stdout.trim().split('\n')).toHaveLength(130);
    expect((await tasks(['list', '--all', '--limit', '7', '--ndjson'])).stdout.trim().split('\n')).toHaveLength(7);
    const json = JSON.parse((await tasks(['list', '--all', '--status', 'skipped', '--json'])).stdout);
    expect(json).toHaveLength(20);
    expect(json[0]).toMatchObject({ status: 'skipped', taskAssignee: { email: expect.any(String) } });
    const pages = sb.sandbox.requestLog.filter((r) => r.path === '/v1/tasks').length;
    expect(pages).toBeGreaterThanOrEqual(4);
  });

  it('validates filters before sending, listing the allowed values', async () => {
    const result = await tasks(['list', '--status', 'late']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: --status must be one of upcoming, dueToday, completed, skipped, overdue, not "late"\n',
    );
    const outcome = await tasks(['list', '--call-outcome', 'maybe']);
    expect(outcome.stderr).toContain(
      'error: --call-outcome must be one of Interested, Callback Later, Followup, Not Interested, Wrong Number, No Answer, Left Voicemail, Not In Service (any case, or hyphenated), not "maybe"\n',
    );
    expect(sb.sandbox.requestLog).toHaveLength(0);
  });

  it('shows due dates relative on a terminal', async () => {
    const result = await tasks(['list', '--status', 'upcoming', '--page-size', '1', '--no-color'], {
      env: sb.env,
      cwd: dir,
      stdoutIsTTY: true,
    });
    expect(result.stdout.split('\n')[1]).toMatch(/ in \d+[hd] /);
  });

  it('parses filters and sorting', async () => {
    const parsed = await parse(['tasks', 'list', '--call-outcome', 'no-answer', '--order', 'desc', '--all']);
    expect(parsed.options).toMatchObject({ callOutcome: 'No Answer', order: 'desc', all: true });
  });
});

describe('tasks get / complete', () => {
  it('shows one task', async () => {
    const result = await tasks(['get', 'tk000001']);
    expect(result.stdout.split('\n').slice(0, 3)).toEqual(['id\ttk000001', 'type\tcall', 'status\toverdue']);
  });

  it('needs an outcome for a call task when it cannot ask', async () => {
    const result = await tasks(['complete', 'tk000001']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: tk000001 is a call task: give --outcome');
    expect(status('tk000001')).toBeUndefined();
  });

  it('accepts any spelling and sends the title-case outcome', async () => {
    const result = await tasks(['complete', 'tk000001', '--outcome', 'NO-ANSWER']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Completed tk000001 (No Answer).\n');
    expect(state(sb).tasks[0]).toMatchObject({ doneStatus: 'completed', callOutcome: 'No Answer' });
  });

  it('prints the completed task under --json, and nothing else', async () => {
    const result = await tasks(['--json', 'complete', 'tk000001', '--outcome', 'Interested']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      taskId: 'tk000001',
      status: 'completed',
      callOutcome: 'Interested',
    });
  });

  it('--json takes status and outcome from the answer to complete, the rest from a read that lags behind', async () => {
    const due = await sb.request('GET', '/v1/tasks?status=dueToday&taskType=call&pageSize=2');
    const [first, second] = due.body.payload.tasks.map((t: { taskId: string }) => t.taskId) as string[];
    const before = (await sb.request('GET', `/v1/tasks/${first}`)).body.payload.task;
    expect(before.status).toBe('dueToday');
    // A cache in front of the service: a task read again gets the answer of the first read.
    const proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
      method === 'GET' && path.startsWith('/v1/tasks/') ? 'stale' : undefined,
    );
    try {
      const env = { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl };
      const result = await tasks(['--json', 'complete', first!, '--outcome', 'left-voicemail'], { env });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(result.stdout)).toEqual({ ...before, status: 'completed', callOutcome: 'Left Voicemail' });
      // The read after completing did lag: it never reached the service, the answer of the first read came back.
      expect(proxy.log.map((r) => `${r.method} ${r.path} ${r.fault ?? ''}`.trim())).toEqual([
        `GET /v1/tasks/${first} stale`,
        `POST /v1/tasks/${first}/complete`,
        `GET /v1/tasks/${first} stale`,
      ]);
      // The service saw two reads: the test's own, and the CLI's first.
      expect(sb.sandbox.requestLog.filter((r) => r.path === `/v1/tasks/${first}`)).toHaveLength(2);
      expect(state(sb).tasks.find((t) => t.taskId === first)).toMatchObject({
        doneStatus: 'completed',
        callOutcome: 'Left Voicemail',
      });
      const human = await tasks(['complete', second!, '--outcome', 'INTERESTED'], { env });
      expect({ code: human.code, stdout: human.stdout, stderr: human.stderr }).toEqual({
        code: 0,
        stdout: '',
        stderr: `Completed ${second} (Interested).\n`,
      });
    } finally {
      await proxy.close();
    }
  });

  it('refuses --outcome for other task types', async () => {
    const result = await tasks(['complete', 'tk000002', '--outcome', 'Interested']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --outcome: tk000002 is a linkedin task; only call tasks take an outcome');
    expect((await tasks(['complete', 'tk000002'])).code).toBe(0);
  });
});

describe('tasks bulk-skip', () => {
  it('gives each run its own journal and failed file, even two runs in the same second', async () => {
    const ids = state(sb)
      .tasks.filter((t) => !t.doneStatus)
      .slice(0, 4)
      .map((t) => t.taskId);
    const runs = [];
    // Two keep their journals, two remove theirs when done: a removed journal's name is still not reused, since the
    // failed file named after it is there.
    const keep = (i: number) => (i % 2 ? [] : ['--keep-journal']);
    for (const [i, id] of ids.entries())
      runs.push(await tasks(['bulk-skip', id, 'tkNope00', '--yes', '--json', ...keep(i)]));
    const files = runs.map((r) => JSON.parse(r.stdout).files as { journal?: string; failed: string });
    expect(runs.map((r) => r.code)).toEqual([3, 3, 3, 3]);
    expect(files.map((f) => Boolean(f.journal))).toEqual([true, false, true, false]);
    // The test clock moves only by the sleeps of the runs: the first ones start in the same second.
    const names = files.map((f) => f.failed.replace(/.*\//, ''));
    expect(names.slice(0, 2)).toEqual([
      expect.stringMatching(/^bulk-skip-\d{8}-\d{6}\.failed\.csv$/),
      expect.stringMatching(/^bulk-skip-\d{8}-\d{6}-2\.failed\.csv$/),
    ]);
    expect(new Set(names).size).toBe(4);
    // Each failed file still holds its own run's failure.
    for (const { failed } of files) expect(readFileSync(failed, 'utf8')).toContain('tkNope00,');
  });

  it('asks for each batch just after the service should have finished it, learning how long batches take', async () => {
    // 300 overdue tasks in 3 batches of 100, one at a time; the sandbox finishes a batch 0.3 s + 5 ms a task after it
    // was accepted (0.8 s), on the test clock. A fixed backoff would ask at 0.25, 0.625, 1.19 s: 1.19 s a batch.
    const ids = state(sb)
      .tasks.filter((t) => !t.doneStatus)
      .slice(0, 300)
      .map((t) => t.taskId);
    writeFileSync(join(dir, 'ids.txt'), ids.join('\n'));
    const result = await tasks(['bulk-skip', '--file', 'ids.txt', '--yes', '--concurrency', '1']);
    expect(result.code).toBe(0);
    const waited = result.sleeps.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThanOrEqual(3 * 800);
    expect(waited).toBeLessThanOrEqual(3 * 800 * 1.1);
  });

  it("gives a batch's place to the next one when the service is due to finish it, once the estimate has settled", async () => {
    sb.close();
    sb = await startTestSandbox({ seed: { tasks: 2000 } });
    const ids = state(sb)
      .tasks.filter((t) => !t.doneStatus)
      .slice(0, 1000)
      .map((t) => t.taskId);
    writeFileSync(join(dir, 'ids.txt'), ids.join('\n'));
    const result = await tasks(['bulk-skip', '--file', 'ids.txt', '--yes', '--concurrency', '1', '-q']);
    expect(result.code).toBe(0);
    const actions = state(sb).bulkActions;
    expect(actions).toHaveLength(10);
    // One place: the service never had a batch accepted while another was unfinished (a place given away at a guess
    // or at a probe between the bounds would do that).
    for (const action of actions)
      expect(actions.filter((a) => a.createdAt < action.createdAt && action.createdAt < a.completesAt)).toEqual([]);
  });

  it('refuses to act without --yes when it cannot ask, sending nothing', async () => {
    const result = await tasks(['bulk-skip', '--where-status', 'overdue']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: refusing to skip 130 task(s) without --yes (no terminal to ask on)');
    expect(skipPosts()).toHaveLength(0);
  });

  it('prints the selection with --dry-run', async () => {
    const result = await tasks(['bulk-skip', 'tk000003', 'tk000003', 'tk000004', '--dry-run']);
    expect(result.stdout).toBe('tk000003\ntk000004\n');
    expect(result.stderr).toBe('1 duplicate id(s) dropped.\nWould skip 2 task(s) in 1 request(s).\n');
  });

  it('skips every overdue task in batches of at most 100 and reports as JSON', async () => {
    const result = await tasks(['bulk-skip', '--where-status', 'overdue', '--yes', '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ total: 130, skipped: 130, failed: 0, batches: 2 });
    expect(summary.bulkActionIds).toHaveLength(2);
    expect(skipPosts()).toHaveLength(2);
    expect(state(sb).tasks.filter((t) => t.doneStatus === 'skipped')).toHaveLength(150);
  });

  it('merges the error reports into one failed CSV and exits 3', async () => {
    await tasks(['complete', 'tk000002']);
    writeFileSync(join(dir, 'ids.csv'), 'taskId,note\ntk000002,done already\nnope,typo\ntk000003,fine\n');
    const result = await tasks(['bulk-skip', '--file', 'ids.csv', '--yes']);
    expect(result.code).toBe(3);
    const failedFile = readdirSync(dir).find((f) => f.endsWith('.failed.csv'))!;
    expect(result.stderr).toBe(
      `Skipped 1 of 3 task(s); 2 failed. Failures: ${join(dir, failedFile)}\n` +
        'error: 2 of 3 task(s) were not skipped\n' +
        `hint: Each row of ${join(dir, failedFile)} says why; send them again with --file ${join(dir, failedFile)}.\n`,
    );
    const bulkActionId = state(sb).bulkActions[0]!.bulkActionId;
    expect(readFileSync(join(dir, failedFile), 'utf8')).toBe(
      `taskId,reason,bulkActionId\ntk000002,task already completed,${bulkActionId}\nnope,task not found,${bulkActionId}\n`,
    );
  });

  it('keeps the counts when an error report cannot be downloaded, says where it is, and exits 3', async () => {
    await tasks(['complete', 'tk000002']);
    const refusing = await refusingUrl();
    sb.sandbox.origin = refusing; // report links on a storage host that refuses connections
    const result = await tasks(['bulk-skip', 'tk000002', 'tk000003', '--yes', '--max-retries', '1']);
    expect(result.code).toBe(3);
    const { bulkActionId, reportId } = state(sb).bulkActions[0]!;
    // The report's name is 128 random bits: it cannot be guessed from the bulk action id.
    expect(reportId).toMatch(/^[0-9a-f]{32}$/);
    const failedFile = readdirSync(dir).find((f) => f.endsWith('.failed.csv'))!;
    expect(result.stderr).toBe(
      `bulk action ${bulkActionId}: 1 failed, but its report could not be downloaded (GET /files/reports/${reportId}.csv failed after 2 attempts: connection refused (${refusing})); fetch it later from ${refusing}/files/reports/${reportId}.csv\n` +
        `Skipped 1 of 2 task(s); 1 failed. Failures: ${join(dir, failedFile)}\n` +
        'error: 1 of 2 task(s) were not skipped\n' +
        `hint: Each row of ${join(dir, failedFile)} says why; send them again with --file ${join(dir, failedFile)}.\n`,
    );
  });

  it('keeps the counts when a report is not CSV (an error page), says so, and exits 3 with nothing to resume', async () => {
    await tasks(['complete', 'tk000002']);
    const { createServer } = await import('node:http');
    const storage = createServer((_req, res) => res.end('{"error":"AccessDenied"}'));
    await new Promise<void>((resolve) => storage.listen(0, '127.0.0.1', resolve));
    try {
      sb.sandbox.origin = `http://127.0.0.1:${(storage.address() as { port: number }).port}`;
      const result = await tasks(['bulk-skip', 'tk000002', 'tk000003', '--yes']);
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('1 failed, but its report could not be read (it is not CSV: ');
      expect(result.stderr).not.toContain('To continue');
    } finally {
      storage.close();
    }
  });

  it('reads ids from stdin, first column of TSV lines', async () => {
    const result = await tasks(['bulk-skip', '-', '--yes', '-q'], {
      env: sb.env,
      cwd: dir,
      stdin: 'tk000003\tcall\ntk000004\tlinkedin\n',
    });
    expect(result.code).toBe(0);
    expect([status('tk000003'), status('tk000004')]).toEqual(['skipped', 'skipped']);
  });

  it('stopped by a failure after a batch was sent: says how many tasks were, then how to continue', async () => {
    writeOpenTaskIds(250);
    let posts = 0;
    // The second batch never reaches the service: the connection is cut before it is forwarded.
    const proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
      method === 'POST' && path === '/v1/tasks/bulk-skip' && ++posts >= 2 ? 'reset-before' : undefined,
    );
    try {
      const env = { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl };
      const argv = ['bulk-skip', '--file', 'ids.txt', '--yes', '--concurrency', '1', '--max-retries', '0'];
      const failed = await tasks(argv, { env });
      expect(failed.code).toBe(1);
      expect(failed.stderr.split('\n').slice(-3)).toEqual([
        'Accepted so far: 100 of 250 tasks, 100 skipped (not sent again).',
        expect.stringMatching(/^To continue: outreach tasks bulk-skip --resume /),
        '',
      ]);
      expect(skipPosts()).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('resumes from its journal without re-sending accepted batches', async () => {
    const ids = writeOpenTaskIds(250);
    const first = await tasks([
      'bulk-skip',
      '--file',
      'ids.txt',
      '--yes',
      '--concurrency',
      '1',
      '-q',
      '--keep-journal',
    ]);
    expect(first.code).toBe(0);
    const journalName = readdirSync(dir).find((f) => f.endsWith('.journal'))!;
    // As if the run had died after the first batch was accepted: drop everything after that line.
    const lines = readFileSync(join(dir, journalName), 'utf8').trim().split('\n');
    writeFileSync(join(dir, journalName), `${lines.slice(0, 5).join('\n')}\n`);
    const before = skipPosts().length;
    // --dry-run prints what is left and skips nothing.
    const dry = await tasks(['bulk-skip', '--resume', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split('\n')).toEqual(ids.slice(100));
    expect(skipPosts().length).toBe(before);
    // A resumed skip asks (or needs --yes) like the first run, naming what is left.
    const unasked = await tasks(['bulk-skip', '--resume']);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('error: refusing to skip 150 task(s) without --yes (no terminal to ask on)');
    expect(skipPosts().length).toBe(before);
    const resumed = await tasks(['bulk-skip', '--resume', '--yes', '--json']);
    expect(resumed.code).toBe(0);
    expect(skipPosts().length - before).toBe(2);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 250, skipped: 250, failed: 0, batches: 3 });
    const again = await tasks(['bulk-skip', '--resume']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('error: --resume: no unfinished bulk-skip journal in this folder');
  });

  it('shows a bulk action status, waiting for it to finish', async () => {
    const started = await sb.request('POST', '/v1/tasks/bulk-skip', { taskIds: ['tk000003', 'nope'] });
    const result = await tasks(['bulk-status', started.body.bulkActionId, '--wait', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'completed', totalTasks: 2, completed: 1, failed: 1 });
  });
});

describe('tasks prompts on a terminal', () => {
  it('asks for the call outcome from the eight values', async () => {
    const result = await tasks(['complete', 'tk000001'], {
      env: sb.env,
      cwd: dir,
      answers: ['No Answer'],
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Call outcome');
    expect(result.stderr).toContain('Not In Service');
    expect(state(sb).tasks[0]!.callOutcome).toBe('No Answer');
  });

  it('shows the count and the first ids, and skips nothing when the answer is no', async () => {
    const result = await tasks(['bulk-skip', 'tk000003', 'tk000004', 'tk000005', 'tk000006', 'tk000007', 'tk000008'], {
      env: sb.env,
      cwd: dir,
      answers: [false],
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Skip 6 tasks (tk000003, tk000004, tk000005, tk000006, tk000007, … (1 more))?');
    expect(result.stderr).toContain('Nothing skipped.');
    expect(skipPosts()).toHaveLength(0);
  });
});
