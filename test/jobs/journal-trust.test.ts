// A journal is read back to decide what to skip: it is trusted only when it is this user's own regular file, written
// for the same service, account and input; nothing is ever written through a link planted at its name or at a
// report's; and one run of a job holds it at a time (issue 27 items 1-4). Through the real CLI, with hostile files.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir, testTime } from '../helpers/context.js';
import { Sandbox } from '../../src/sandbox/server.js';
import { jobBinding } from '../../src/jobs/journal.js';
import { realClock } from '../../src/context.js';
import { cutJournal } from '../helpers/journal.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-trust-');
  copyFileSync(new URL('../../fixtures/prospects/sample.csv', import.meta.url), join(dir, 'leads.csv'));
});
afterEach(() => sb.close());

const chunked = ['--chunk-size', '5', '--concurrency', '1', '--no-wait'];
const importLeads = (argv: string[], env = sb.env) =>
  run(['prospects', 'import', 'leads.csv', ...argv], { env, cwd: dir });
const journal = () => join(dir, 'leads.import-journal');
const importPosts = (s: TestSandbox) =>
  s.sandbox.requestLog.filter((r) => r.path.startsWith('/v1/prospects/import')).length;

/** An import that was cut short after two of its five chunks. */
async function interrupted(): Promise<void> {
  expect((await importLeads([...chunked, '-q'])).code).toBe(0);
  cutJournal(journal(), 2);
}

describe('journals and files the tool writes', () => {
  it('replaces a symlink planted at the journal or a report name instead of writing through it', async () => {
    const precious = join(dir, 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, journal());
    symlinkSync(join(dir, 'created-by-a-link.txt'), join(dir, 'leads.results.csv'));
    const result = await importLeads(['--restart', '--wait', '-q', '--keep-journal']);
    expect(result.code).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
    expect(lstatSync(journal()).isFile()).toBe(true);
    expect(existsSync(join(dir, 'created-by-a-link.txt'))).toBe(false);
    for (const name of ['leads.import-journal', 'leads.results.csv'])
      expect({ name, mode: statSync(join(dir, name)).mode & 0o777 }).toEqual({ name, mode: 0o600 });
  });

  it('refuses to resume from a journal others may write, or that is a link', async () => {
    await interrupted();
    chmodSync(journal(), 0o666);
    const shared = await importLeads([...chunked, '--resume']);
    expect(shared.code).toBe(2);
    expect(shared.stderr).toBe(
      `error: ${journal()}: is not trusted as a journal: others may write it (mode 666); chmod 600 it\n` +
        'hint: Move it aside, or start over with --restart.\n',
    );
    chmodSync(journal(), 0o600);
    copyFileSync(journal(), join(dir, 'elsewhere.journal'));
    rmSync(journal());
    symlinkSync(join(dir, 'elsewhere.journal'), journal());
    const linked = await importLeads([...chunked, '--resume']);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is not trusted as a journal: it is a symbolic link');
  });

  it('resumes only against the service, account and input the journal was written for', async () => {
    await interrupted();
    const other = await startTestSandbox();
    try {
      const before = importPosts(other);
      const elsewhere = await importLeads([...chunked, '--resume'], other.env);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toBe(
        `error: --resume: ${journal()} is not this run's journal: service ${sb.baseUrl} (this run: ${other.baseUrl})\n` +
          'hint: Start over with --restart: everything is sent again.\n',
      );
      expect(importPosts(other)).toBe(before);
    } finally {
      await other.close();
    }
    copyFileSync(join(dir, 'leads.csv'), join(dir, 'other.csv'));
    copyFileSync(journal(), join(dir, 'other.import-journal'));
    const otherInput = await run(['prospects', 'import', 'other.csv', ...chunked, '--resume'], {
      env: sb.env,
      cwd: dir,
    });
    expect(otherInput.code).toBe(2);
    expect(otherInput.stderr).toContain(`input ${join(dir, 'leads.csv')} (this run: ${join(dir, 'other.csv')})`);
    // The right service, account and input resume as before.
    const resumed = await importLeads([...chunked, '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ chunks: 5 });
    // The same address, another account: the service there now takes another key.
    const port = Number(new URL(sb.baseUrl).port);
    await sb.close();
    cutJournal(journal(), 2);
    const otherAccount = new Sandbox({
      key: 'sk_test_another_account_0001',
      clock: { now: testTime.now, sleep: realClock.sleep },
    });
    await otherAccount.listen(port, '127.0.0.1');
    try {
      const env = { ...sb.env, OUTREACH_API_KEY: 'sk_test_another_account_0001' };
      const wrongAccount = await importLeads([...chunked, '--resume'], env);
      expect(wrongAccount.code).toBe(2);
      expect(wrongAccount.stderr).toContain(
        "is not this run's journal: another account (this run sends another API key)",
      );
      // What the journal records is a keyed hash of the key, never the key.
      expect(readFileSync(journal(), 'utf8')).not.toContain(sb.key);
    } finally {
      await otherAccount.close();
    }
    sb = await startTestSandbox(); // for afterEach
  });

  it('refuses a journal whose accepted chunks outreach did not write, sending nothing', async () => {
    await interrupted();
    // A planted request id (a path the resume would poll) and a hash that is not one.
    const lines = readFileSync(journal(), 'utf8').trimEnd().split('\n');
    const at = lines.findIndex((line) => line.includes('"accepted"'));
    const entry = JSON.parse(lines[at]!) as { accepted: Record<string, unknown> };
    entry.accepted.requestId = '../../admin';
    lines[at] = JSON.stringify(entry);
    writeFileSync(journal(), `${lines.join('\n')}\n`);
    const before = importPosts(sb);
    const resumed = await importLeads([...chunked, '--resume']);
    expect({ code: resumed.code, stderr: resumed.stderr }).toEqual({
      code: 2,
      stderr:
        `error: ${journal()}: holds a record of unit 0 (accepted) that outreach did not write\n` +
        'hint: Move it aside; it was not written by outreach.\n',
    });
    expect(importPosts(sb)).toBe(before);
  });

  it('lets one run hold a journal at a time, naming the process that holds it', async () => {
    // The parent of this test process is alive for as long as the test runs.
    writeFileSync(`${journal()}.lock`, JSON.stringify({ pid: process.ppid, since: '2026-11-24T21:00:00.000Z' }), {
      mode: 0o600,
    });
    const second = await importLeads([...chunked]);
    expect(second.code).toBe(2);
    expect(second.stderr).toBe(
      `error: ${journal()} is in use by process ${process.ppid} (since 2026-11-24T21:00:00.000Z)\n` +
        'hint: Wait for that run to end, or stop it; a lock whose process has ended is taken over.\n',
    );
    expect(importPosts(sb)).toBe(0);
    // A lock that does not say who holds it is never taken over on a guess.
    writeFileSync(`${journal()}.lock`, '');
    const unsaid = await importLeads([...chunked]);
    expect(unsaid.code).toBe(2);
    expect(unsaid.stderr).toContain(`is locked by ${journal()}.lock, which does not say which process holds it`);
    // A lock left by a process that has ended (kill -9) is taken over, and released at the end of the run.
    writeFileSync(`${journal()}.lock`, JSON.stringify({ pid: 2 ** 22 + 1, since: 'earlier' }));
    expect((await importLeads([...chunked, '-q'])).code).toBe(0);
    expect(existsSync(`${journal()}.lock`)).toBe(false);
  });

  it('binds and locks DNC journals the same way', async () => {
    writeFileSync(join(dir, 'optouts.csv'), Array.from({ length: 12 }, (_, i) => `p${i}@x.example`).join('\n') + '\n');
    const add = (env = sb.env, extra: string[] = []) =>
      run(['dnc', 'add', 'dncGlobal1', '--file', 'optouts.csv', '--chunk-size', '5', '--concurrency', '1', ...extra], {
        env,
        cwd: dir,
      });
    expect((await add(sb.env, ['-q', '--keep-journal'])).code).toBe(0);
    cutJournal(join(dir, 'optouts.dnc-journal'), 1);
    const other = await startTestSandbox();
    try {
      const elsewhere = await add(other.env, ['--resume']);
      expect(elsewhere.code).toBe(2);
      expect(elsewhere.stderr).toContain(`service ${sb.baseUrl} (this run: ${other.baseUrl})`);
    } finally {
      await other.close();
    }
    expect((await add(sb.env, ['--resume', '-q'])).code).toBe(0);
    expect(existsSync(join(dir, 'optouts.dnc-journal.lock'))).toBe(false);
  });

  it('never lets a planted bulk-skip journal choose where to write, what to skip, or skip unasked', async () => {
    const bashrc = join(dir, 'bashrc');
    writeFileSync(bashrc, 'alias ll="ls -l"\n');
    const journalName = 'bulk-skip-20261124-090000.journal';
    /** A journal as an older or hostile writer leaves it: a failedPath of its choosing, the ids given, and a binding
     * (to this service and account, as a teammate's copy would have) or none. */
    const plant = (ids: string[], bound: boolean) => {
      const { account } = jobBinding({ config: { baseUrl: sb.baseUrl, apiKey: sb.key } });
      const header = { journal: 'outreach', version: 2, job: 'bulk-skip', input: { path: '' } };
      const lines = [
        {
          ...header,
          settings: { failedPath: bashrc },
          ...(bound && { binding: { baseUrl: sb.baseUrl, account, input: '' } }),
        },
        { unit: 0, planned: { ids } },
      ];
      writeFileSync(join(dir, journalName), lines.map((l) => `${JSON.stringify(l)}\n`).join(''), { mode: 0o600 });
    };
    plant(['tk000001', 'tk000002'], false);
    const unbound = await run(['tasks', 'bulk-skip', '--resume', '--yes'], { env: sb.env, cwd: dir });
    expect(unbound.code).toBe(2);
    expect(unbound.stderr).toContain('it records no service, account or input');
    plant(['tk000001', '$(id>$HOME/x)'], true);
    // A bare --resume passes it over; named, it is refused with what is wrong.
    const passedOver = await run(['tasks', 'bulk-skip', '--resume', '--yes'], { env: sb.env, cwd: dir });
    expect(passedOver.stderr).toContain('error: --resume: no unfinished bulk-skip journal in this folder');
    const hostile = await run(['tasks', 'bulk-skip', '--resume', journalName, '--yes'], { env: sb.env, cwd: dir });
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toContain('holds "$(id>$HOME/x)" where a task id belongs');
    // Good ids: it asks first, and failures go beside the journal, not to the path it names.
    plant(['tk000001', 'tkNope00001'], true);
    const unasked = await run(['tasks', 'bulk-skip', '--resume'], { env: sb.env, cwd: dir });
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('refusing to skip 2 task(s) without --yes');
    const skips = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/tasks/bulk-skip').length;
    expect(skips()).toBe(0);
    const resumed = await run(['tasks', 'bulk-skip', '--resume', '--yes', '--json'], { env: sb.env, cwd: dir });
    expect(resumed.code).toBe(3);
    expect(JSON.parse(resumed.stdout).files.failed).toBe(join(dir, 'bulk-skip-20261124-090000.failed.csv'));
    expect(readFileSync(bashrc, 'utf8')).toBe('alias ll="ls -l"\n');
  });

  it('writes dnc export -o to a new 0600 file renamed into place, replacing a link planted at the name', async () => {
    const precious = join(dir, 'precious.txt');
    writeFileSync(precious, 'keep me\n');
    symlinkSync(precious, join(dir, 'out.csv'));
    const result = await run(['dnc', 'export', 'dncGlobal1', '-o', 'out.csv'], { env: sb.env, cwd: dir });
    expect(result.code).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe('keep me\n');
    expect(lstatSync(join(dir, 'out.csv')).isFile()).toBe(true);
    expect(statSync(join(dir, 'out.csv')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8').split('\n')[0]).toBe('value,type,createdAt,addedBy');
  });

  it('resumes under --sandbox, whose port and key change every run: the journal is bound to the sandbox state', async () => {
    const configDir = tempDir('outreach-trust-config-');
    const first = await run(['--sandbox', 'prospects', 'import', 'leads.csv', ...chunked, '-q'], {
      configDir,
      cwd: dir,
    });
    expect(first.code).toBe(0);
    cutJournal(journal(), 2);
    const resumed = await run(['--sandbox', 'prospects', 'import', 'leads.csv', ...chunked, '--resume', '--json'], {
      configDir,
      cwd: dir,
    });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 25, chunks: 5 });
    // Another sandbox state is another service.
    const other = await run(['--sandbox', 'prospects', 'import', 'leads.csv', ...chunked, '--resume'], {
      configDir: tempDir('outreach-trust-other-'),
      cwd: dir,
    });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("is not this run's journal: service sandbox ");
  });
});
