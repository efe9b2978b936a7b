// An import through a fault-injecting proxy: every row is reported as what happened to it, whatever broke.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy, type FaultPlan, type FaultProxy } from '../helpers/fault-proxy.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox | undefined;
let proxy: FaultProxy | undefined;
let storage: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await storage?.close();
  await sb?.close();
});

/** The sandbox behind a faulty proxy; its report links point at a second proxy, a storage host on another origin. */
async function importThrough(
  plan: FaultPlan,
  name: string,
  argv: string[],
  storagePlan: FaultPlan = () => undefined,
  madeDir: (dir: string) => void = () => undefined,
) {
  sb = await startTestSandbox();
  proxy = await startFaultProxy(sb.baseUrl, plan);
  storage = await startFaultProxy(sb.baseUrl, storagePlan);
  sb.sandbox.origin = storage.baseUrl;
  const dir = tempDir('outreach-import-faults-');
  madeDir(dir);
  copyFileSync(new URL(`../../fixtures/prospects/${name}`, import.meta.url), join(dir, name));
  const env = { OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: testKey };
  const result = await run(['prospects', 'import', name, ...argv], { env, cwd: dir });
  const reportPath = join(dir, name.replace('.csv', '.results.csv'));
  const results = argv.includes('--wait') ? readFileSync(reportPath, 'utf8').trim().split('\n') : [];
  return { result, results, dir };
}

const importPost = (method: string, path: string) => method === 'POST' && path.startsWith('/v1/prospects/import');

describe('an import whose answers get lost', () => {
  it('reports rows of a chunk re-sent after a lost answer as succeeded, not unchanged', async () => {
    let posts = 0;
    const { result, results } = await importThrough(
      ({ method, path }) => (importPost(method, path) && ++posts === 1 ? 'reset-after' : undefined),
      'sample.csv',
      ['--wait', '--json'],
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 25, sent: 25, succeeded: 25, unchanged: 0, failed: 0 });
    expect(sb!.sandbox.requestLog.filter((r) => importPost(r.method, r.path))).toHaveLength(2);
    expect(results[1]).toBe(
      '2,amelie.dubois@acme.example,succeeded,10400 nothing to update on a resend after a lost answer: the first attempt may have written it',
    );
    expect(results.slice(1).every((line) => line.split(',')[2] === 'succeeded')).toBe(true);
  });

  it('keeps the outcome when a report cannot be downloaded: rows unknown, where to fetch it, exit 3', async () => {
    const { result, results, dir } = await importThrough(
      () => undefined,
      'messy.csv',
      ['--wait', '--max-retries', '1'],
      () => 'reset-before',
    );
    // Two tries at the storage host, neither with the API key.
    expect(storage!.log.map((r) => [r.path.split('/')[2], r.withKey])).toEqual([
      ['reports', false],
      ['reports', false],
    ]);
    expect(result.code).toBe(3);
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^Rows 2-18: accepted; its report could not be downloaded \(GET \/files\/reports\/\S+ failed after 2 attempts: connection closed by the server \(http:\/\/127\.0\.0\.1:\d+\)\)\. Fetch it later from http:\/\/127\.0\.0\.1:\d+\/files\/reports\/\S+\.csv or with: outreach prospects import-status \S+$/,
    );
    expect(lines[1]).toBe(
      `Imported messy.csv: 17 rows read, 13 sent in 1 chunk, 4 rejected, 0 succeeded, 0 unchanged, 0 failed, 13 unknown (report not downloaded). Reports: ${join(dir, 'messy.rejected.csv')}, ${join(dir, 'messy.results.csv')}, ${join(dir, 'messy.failed.csv')}`,
    );
    expect(results.filter((line) => line.split(',')[2] === 'unknown')).toHaveLength(13);
    expect(results.filter((line) => line.split(',')[2] === 'rejected')).toHaveLength(4);
  });
});

describe('a chunk sent again', () => {
  it('is sent again from its spool with the same bytes: the rows the checks rejected stay out', async () => {
    let posts = 0;
    const { result } = await importThrough(
      ({ method, path }) => (importPost(method, path) && ++posts === 1 ? 'reset-after' : undefined),
      'messy.csv',
      ['--no-wait', '--json'],
    );
    // The only error is the rejected rows, as on any run of this file: the reset is not one.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('error:'))).toEqual([
      'error: 4 of 17 rows rejected',
    ]);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 17, sent: 13, rejected: 4, chunks: 1 });
    expect(sb!.sandbox.requestLog.filter((r) => importPost(r.method, r.path))).toHaveLength(2);
  });

  it('sends the bytes of the first attempt again, even when the file changed in between', async () => {
    let posts = 0;
    let dir = '';
    // The first attempt is lost before the service sees it, and the file is edited before the retry.
    const { result } = await importThrough(
      ({ method, path }) => {
        if (!importPost(method, path) || ++posts !== 1) return undefined;
        const file = join(dir, 'sample.csv');
        writeFileSync(file, readFileSync(file, 'utf8').replace('Amélie', 'Amelia'));
        return 'reset-before';
      },
      'sample.csv',
      ['--no-wait'],
      undefined,
      (made) => (dir = made),
    );
    expect(result.code).toBe(0);
    expect(posts).toBe(2);
    expect(prospectByEmail(sb!, 'amelie.dubois@acme.example')?.values.fFirstNm).toBe('Amélie');
  });
});

describe('an import that the service rate-limits for minutes', () => {
  it('waits the 429s out (Retry-After), says so on stderr, and finishes', async () => {
    let posts = 0;
    // 120 answers of 429 with Retry-After: 1 before the chunk goes through: two minutes, past a single request's 30 s.
    const { result } = await importThrough(
      ({ method, path }) => (importPost(method, path) && ++posts <= 120 ? 'rate-limit' : undefined),
      'sample.csv',
      ['--wait', '--json'],
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ sent: 25, succeeded: 25 });
    expect(result.sleeps.filter((ms) => ms === 1000).length).toBeGreaterThanOrEqual(120);
    expect(result.stderr).toMatch(
      /^waiting: the service is rate-limiting \(HTTP 429\); next try in 1s, giving up at \d\d:\d\d:\d\d \(--rate-limit-wait 900\)\n/,
    );
  });
});
