// End to end: spawn bin/outreach as a user would, against `outreach sandbox start --port 0`.
import { acceptedCount } from '../helpers/journal.js';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runBin, startSandboxProcess, type SandboxProcess } from '../helpers/spawn.js';
import { tempDir } from '../helpers/context.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { tableRows } from '../helpers/state-db.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { binPath } from '../helpers/spawn.js';

let server: SandboxProcess;
const key = 'sk_e2e_0123456789abcdef';
beforeAll(async () => {
  server = await startSandboxProcess(['--key', key], cleanEnv());
});
afterAll(async () => {
  await server?.stop();
});

describe('outreach as a user runs it', () => {
  it('prints its version', async () => {
    const result = await runBin(['--version'], { env: cleanEnv() });
    expect(result).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('lists inbox categories from a standalone sandbox', async () => {
    const env = cleanEnv({ OUTREACH_BASE_URL: server.baseUrl, OUTREACH_API_KEY: key, OUTREACH_CONFIG_DIR: tempDir() });
    const result = await runBin(['inbox', 'categories'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[1]).toBe('interested\tInterested\tyes\tPositive');
    expect(result.stderr).toBe('');
  });

  it('prints the sandbox address and key on two stdout lines', async () => {
    // Exactly what `outreach sandbox start --port 0 --key K` printed; the address is where it answers.
    expect(server.stdout()).toMatch(/^base URL: http:\/\/127\.0\.0\.1:[1-9]\d*\nAPI key: sk_e2e_0123456789abcdef\n$/);
    const baseUrl = /^base URL: (\S+)$/m.exec(server.stdout())![1]!;
    const answer = await fetch(`${baseUrl}/v1/unibox/categories`, { headers: { 'x-api-key': key } });
    expect(answer.status).toBe(200);
  });

  it('exits 4 for a wrong key, 2 for a typo, 1 for an unreachable service', async () => {
    const base = { OUTREACH_CONFIG_DIR: tempDir() };
    expect(
      (
        await runBin(['inbox', 'categories'], {
          env: cleanEnv({ ...base, OUTREACH_BASE_URL: server.baseUrl, OUTREACH_API_KEY: 'sk_bad_key_000000' }),
        })
      ).code,
    ).toBe(4);
    expect((await runBin(['inbox', 'categoris'], { env: cleanEnv(base) })).code).toBe(2);
    expect(
      (
        await runBin(['--max-retries', '0', 'inbox', 'categories'], {
          env: cleanEnv({ ...base, OUTREACH_BASE_URL: await refusingUrl(), OUTREACH_API_KEY: key }),
        })
      ).code,
    ).toBe(1);
  });

  it('keeps --sandbox state in the config folder between two invocations', async () => {
    const configDir = tempDir();
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: configDir });
    const first = await runBin(['--sandbox', 'inbox', 'categories', '--json'], { env });
    expect(first.code).toBe(0);
    // An SQLite database any SQLite tool opens.
    const statePath = join(configDir, 'sandbox', 'state.db');
    expect(readFileSync(statePath).subarray(0, 15).toString()).toBe('SQLite format 3');
    const firstTaskDue = tableRows(statePath, 'tasks')[0]!.dueDate;
    expect((statSync(statePath).mode & 0o777).toString(8)).toBe('600');
    const second = await runBin(['--sandbox', 'inbox', 'categories', '--json'], { env });
    expect(second.stdout).toBe(first.stdout);
    expect(tableRows(statePath, 'tasks')[0]!.dueDate).toBe(firstTaskDue);
    // A reset empties the database and lays the seed down again in place (a server sharing it sees the seed).
    expect((await runBin(['--sandbox', 'tasks', 'complete', 'tk000002', '-q'], { env })).code).toBe(0);
    expect(tableRows(statePath, 'tasks')[1]!.doneStatus).toBe('completed');
    expect((await runBin(['sandbox', 'reset'], { env })).code).toBe(0);
    expect(existsSync(statePath)).toBe(true);
    expect(tableRows(statePath, 'tasks')[1]).toMatchObject({ taskId: 'tk000002' });
    expect(tableRows(statePath, 'tasks')[1]!.doneStatus).toBeUndefined();
  });

  it('exits 130 on Ctrl-C in the middle of a request', async () => {
    // The proxy holds the answer: the request is in flight for as long as the test needs, with no clock involved.
    const proxy = await startFaultProxy(server.baseUrl, () => 'hold');
    try {
      const child = spawn(process.execPath, [binPath, 'inbox', 'categories'], {
        env: cleanEnv({ OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: key, OUTREACH_CONFIG_DIR: tempDir() }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      await proxy.held(1);
      child.kill('SIGINT');
      const [code] = await once(child, 'close');
      expect(code).toBe(130);
      expect(stderr).toBe('interrupted\n');
    } finally {
      await proxy.close();
    }
  });

  it('stops the standalone sandbox cleanly on SIGINT with exit 0; a key it made up is printed', async () => {
    const other = await startSandboxProcess([], cleanEnv());
    const answer = await fetch(`${other.baseUrl}/v1/unibox/categories`, { headers: { 'x-api-key': other.key } });
    expect(answer.status).toBe(200);
    const result = await other.stop();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^base URL: http:\/\/127\.0\.0\.1:[1-9]\d*\nAPI key: sk_sandbox_[0-9a-f]{24}\n$/);
  });
});

describe('prospects import as a user runs it', () => {
  it('survives kill -9: --resume sends only the chunks not yet accepted', async () => {
    const { copyFileSync, readFileSync: read } = await import('node:fs');
    const sandbox = await startSandboxProcess(['--key', key], cleanEnv());
    // From the third chunk on, answers are held: once one is held, the first two are answered and journaled.
    // The resume goes through the same address (a journal belongs to one service), with nothing held any more.
    let chunks = 0;
    let holding = true;
    const proxy = await startFaultProxy(sandbox.baseUrl, ({ method }) =>
      holding && method === 'POST' && ++chunks >= 3 ? 'hold' : undefined,
    );
    const dir = tempDir('outreach-kill-');
    copyFileSync(new URL('../../fixtures/prospects/sample.csv', import.meta.url), join(dir, 'sample.csv'));
    const env = cleanEnv({ OUTREACH_BASE_URL: sandbox.baseUrl, OUTREACH_API_KEY: key, OUTREACH_CONFIG_DIR: tempDir() });
    try {
      const args = ['prospects', 'import', 'sample.csv', '--chunk-size', '5', '--concurrency', '1', '--no-wait'];
      const child = spawn(process.execPath, [binPath, ...args], {
        env: { ...env, OUTREACH_BASE_URL: proxy.baseUrl },
        cwd: dir,
        stdio: 'ignore',
      });
      const journal = join(dir, 'sample.import-journal');
      const acceptedLines = () => (existsSync(journal) ? acceptedCount(read(journal, 'utf8')) : 0);
      await proxy.held(1);
      child.kill('SIGKILL');
      await once(child, 'close');
      holding = false;
      const accepted = acceptedLines();
      expect(accepted).toBeGreaterThanOrEqual(2);
      expect(accepted).toBeLessThan(5);

      const requests = async () =>
        (
          (await (await fetch(`${sandbox.baseUrl}/_sandbox/requests`, { headers: { 'x-api-key': key } })).json()) as {
            requests: Array<{ path: string }>;
          }
        ).requests;
      const postsBefore = (await requests()).filter((r) => r.path === '/v1/prospects/import-with-field-name').length;
      const resumed = await runBin([...args, '--resume', '--wait', '--json'], {
        env: { ...env, OUTREACH_BASE_URL: proxy.baseUrl },
        cwd: dir,
      });
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      const summary = JSON.parse(resumed.stdout);
      expect(summary).toMatchObject({ total: 25, sent: 25, chunks: 5, rejected: 0, failed: 0 });
      const postsAfter = (await requests()).filter((r) => r.path === '/v1/prospects/import-with-field-name').length;
      // Chunks that were in flight at the kill may be sent again (the service matches by email); accepted ones never are.
      expect(postsAfter - postsBefore).toBe(5 - accepted);
      // A chunk in flight at the kill is a replay now: rows its first attempt wrote are reported as succeeded.
      expect(summary).toMatchObject({ succeeded: 25, unchanged: 0 });
      expect(
        read(join(dir, 'sample.results.csv'), 'utf8')
          .split('\n')
          .filter((l) => l.split(',')[2] === 'succeeded'),
      ).toHaveLength(25);
    } finally {
      await proxy.close();
      await sandbox.stop();
    }
  });
});

describe('every group as a user runs it, against a standalone sandbox', () => {
  it('tasks, dnc, schedules and sequences end to end', async () => {
    const { writeFileSync } = await import('node:fs');
    const sandbox = await startSandboxProcess(['--key', key], cleanEnv());
    const dir = tempDir('outreach-e2e-');
    const env = cleanEnv({ OUTREACH_BASE_URL: sandbox.baseUrl, OUTREACH_API_KEY: key, OUTREACH_CONFIG_DIR: tempDir() });
    const cli = (argv: string[], input?: string) => runBin(argv, { env, cwd: dir, input });
    try {
      const overdue = await cli(['tasks', 'list', '--status', 'overdue', '--type', 'call', '--all']);
      expect(overdue.code).toBe(0);
      const ids = overdue.stdout.trim().split('\n');
      expect(ids.length).toBeGreaterThan(20);
      const skip = await cli(['tasks', 'bulk-skip', '-', '--yes', '--json'], overdue.stdout);
      expect(skip.code).toBe(0);
      expect(JSON.parse(skip.stdout)).toMatchObject({ total: ids.length, skipped: ids.length, failed: 0 });
      expect((await cli(['tasks', 'list', '--status', 'overdue', '--type', 'call'])).stdout).toBe('');

      writeFileSync(join(dir, 'optouts.txt'), 'Rival.io\nhttps://www.acme.example/x\nbad value\n');
      const add = await cli(['dnc', 'add', 'dncCustmr2', '--file', 'optouts.txt', '--json']);
      expect(add.code).toBe(3);
      expect(JSON.parse(add.stdout)).toMatchObject({ read: 3, valid: 2, rejected: 1, sent: 2 });
      expect((await cli(['dnc', 'export', 'dncCustmr2'])).stdout).toContain('\nrival.io,domain,');

      const schedule = await cli([
        'schedules',
        'create',
        '--name',
        'E2E',
        '--timezone',
        'Europe/Berlin',
        '--day',
        'mon=09:00-17:00',
      ]);
      expect(schedule.code).toBe(0);
      expect((await cli(['schedules', 'list'])).stdout).toContain('\tE2E\tEurope/Berlin\tno\tMon 09:00-17:00\n');
      // A zone by Windows' name, read through the mapping the built CLI loads when it is needed.
      const outlook = 'email,Time Zone\nann@x.example,W. Europe Standard Time\n';
      const preview = await cli(['schedules', 'preview', '58964', '--prospects', '-', '--json'], outlook);
      expect(JSON.parse(preview.stdout)).toMatchObject([{ timezone: 'W. Europe Standard Time', first: {} }]);

      const pause = await cli(['sequences', 'pause', 'sqOnbrd1']);
      expect(pause).toMatchObject({ code: 0, stdout: 'success\t1\nfailed\t0\n' });
    } finally {
      await sandbox.stop();
    }
  });
});

describe('the bundle reads YAML', () => {
  it('webhooks create --from-file takes a YAML file in the built CLI (the bundled yaml has only a default export)', async () => {
    const { writeFileSync } = await import('node:fs');
    const dir = tempDir();
    writeFileSync(join(dir, 'hook.yaml'), 'name: crm\nwebhookUrl: https://crm.example/hooks\nwebhookEvent: [task-*]\n');
    const result = await runBin(['--sandbox', 'webhooks', 'create', '--from-file', 'hook.yaml', '--json'], {
      env: cleanEnv({ OUTREACH_CONFIG_DIR: dir }),
      cwd: dir,
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({
      name: 'crm',
      status: 'active',
      testDelivery: { status: 'success' },
    });
  });
});
