// Ctrl-C during an import, through the real process: the first lets requests already sent be answered and journals
// them, the second stops at once; either way the exact --resume command is printed and nothing is sent twice.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { binPath, cleanEnv, runBin } from '../helpers/spawn.js';
import { prospectByEmail, allProspects } from '../helpers/sandbox-state.js';

let sb: TestSandbox | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sb?.close();
});

const isImport = (method: string, path: string) => method === 'POST' && path === '/v1/prospects/import-with-field-name';
const emails = Array.from({ length: 40 }, (_, i) => `person${i + 1}@interrupt.example`);

async function setUp(extraEnv: Record<string, string> = {}) {
  sb = await startTestSandbox();
  let imports = 0;
  // The first two chunk requests reach the service; their answers wait until the test releases them.
  proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
    isImport(method, path) && ++imports <= 2 ? 'hold' : undefined,
  );
  const dir = tempDir('outreach-interrupt-');
  writeFileSync(join(dir, 'people.csv'), ['First Name,Email', ...emails.map((e, i) => `P${i + 1},${e}`)].join('\n'));
  const env = cleanEnv({
    OUTREACH_BASE_URL: proxy.baseUrl,
    OUTREACH_API_KEY: testKey,
    OUTREACH_CONFIG_DIR: dir,
    ...extraEnv,
  });
  const argv = ['prospects', 'import', 'people.csv', '--chunk-size', '10', '--concurrency', '2', '--no-wait'];
  const child = spawn(process.execPath, [binPath, ...argv], { env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const stderrShows = (text: string) =>
    new Promise<void>((resolve) => {
      const check = () => stderr.includes(text) && resolve();
      child.stderr.on('data', (d) => {
        stderr += d;
        check();
      });
      check();
    });
  const exited = once(child, 'close').then(([code]) => ({ code: code as number, stderr }));
  return { dir, env, child, stderrShows, exited };
}

/** Starts the import and presses Ctrl-C once two chunks are in flight; resolves when the CLI says it is stopping. */
async function interruptedWithTwoInFlight() {
  const started = await setUp();
  await proxy!.held(2);
  const stopping = started.stderrShows('stopping:');
  started.child.kill('SIGINT');
  await stopping;
  return started;
}

const importsArrived = () => sb!.sandbox.requestLog.filter((r) => isImport(r.method, r.path)).length;
const stored = () => emails.filter((e) => prospectByEmail(sb!, e)).length;
const resumeLine =
  'To continue: outreach prospects import people.csv --chunk-size 10 --concurrency 2 --no-wait --resume\n';

describe('Ctrl-C during an import', () => {
  it('lets the chunks already sent be answered, journals them, and --resume sends only the rest', async () => {
    const { dir, env, exited } = await interruptedWithTwoInFlight();
    proxy!.release();
    const first = await exited;
    expect(first.code).toBe(130);
    expect(first.stderr).toBe(
      'stopping: nothing new is sent; waiting up to 30s for the requests under way to be answered (Ctrl-C again to stop at once)\n' +
        'interrupted\n' +
        'Accepted so far: 20 rows in 2 chunks (not sent again).\n' +
        resumeLine,
    );
    expect(importsArrived()).toBe(2);

    const resumed = await runBin(
      ['prospects', 'import', 'people.csv', '--chunk-size', '10', '--concurrency', '2', '--no-wait', '--resume'],
      {
        env,
        cwd: dir,
      },
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('Resuming: 2 chunk(s) already accepted are not sent again.');
    expect(resumed.stderr).toContain('40 sent in 4 chunks (20 of them by an earlier run)');
    expect(importsArrived()).toBe(4); // 2 + the 2 never sent: no chunk went twice
    expect(stored()).toBe(40);
  });

  it('stops at once on a second Ctrl-C; --resume sends the unanswered chunks again without duplicating anyone', async () => {
    const { dir, env, child, exited } = await interruptedWithTwoInFlight();
    child.kill('SIGINT');
    const first = await exited;
    expect(first.code).toBe(130);
    expect(first.stderr.endsWith(`interrupted\n${resumeLine}`)).toBe(true);
    proxy!.release();

    const resumed = await runBin(
      ['prospects', 'import', 'people.csv', '--chunk-size', '10', '--concurrency', '2', '--no-wait', '--resume'],
      {
        env,
        cwd: dir,
      },
    );
    expect(resumed.code).toBe(0);
    expect(importsArrived()).toBe(6); // the 2 cut off were sent again: their answers never came
    expect(stored()).toBe(40);
    expect(allProspects(sb!).filter((p) => p.email.endsWith('@interrupt.example'))).toHaveLength(40);
  });
});

describe('kill -9 during an import', () => {
  it('leaves only its chunk spools (0600) in its private folder; the next import removes them and its half-written reports', async () => {
    const tmp = tempDir('outreach-tmpdir-');
    writeFileSync(join(tmp, 'someone-elses.json'), '{}');
    const { dir, env, child } = await setUp({ TMPDIR: tmp });
    await proxy!.held(2);
    child.kill('SIGKILL');
    await once(child, 'close');
    proxy!.release();
    // The chunks under way were spooled in the private folder, named after the process that a kill -9 stopped.
    const own = join(tmp, `outreach-${process.getuid!()}`);
    expect(statSync(own).mode & 0o777).toBe(0o700);
    const spools = readdirSync(own);
    expect(spools.length).toBeGreaterThan(0);
    for (const name of spools) {
      expect(name).toMatch(new RegExp(`^outreach-chunk-${child.pid}-[0-9a-f]{12}-\\d+\\.json$`));
      expect(statSync(join(own, name)).mode & 0o777).toBe(0o600);
    }
    writeFileSync(
      join(dir, `.people.results.csv.outreach-tmp-${child.pid}-0123456789ab`),
      '2,person1@interrupt.example\n',
    );

    const resumed = await runBin(
      ['prospects', 'import', 'people.csv', '--chunk-size', '10', '--concurrency', '2', '--no-wait', '--resume'],
      { env, cwd: dir },
    );
    expect(resumed.code).toBe(0);
    expect(readdirSync(tmp).sort()).toEqual([`outreach-${process.getuid!()}`, 'someone-elses.json']);
    expect(readdirSync(own)).toEqual([]);
    expect(readdirSync(dir).filter((name) => name.includes('outreach-tmp'))).toEqual([]);
    expect(stored()).toBe(40);
  });
});
