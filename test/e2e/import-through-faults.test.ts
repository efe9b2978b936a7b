// An import through a network that misbehaves on 10% of requests (resets before and after the service sees them,
// answers cut off, 429 bursts, delays), in one run: exit 0, every row in the sandbox exactly once, every row reported
// as succeeded, and no chunk sent again once its answer arrived. IMPORT_FAULT_ROWS=200000 runs the full size.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { allProspects } from '../helpers/sandbox-state.js';

const rows = Number(process.env.IMPORT_FAULT_ROWS ?? 3000);
const chunkRows = Math.max(30, Math.round(rows / 100));
let sb: TestSandbox | undefined;
let proxy: FaultProxy | undefined;
afterAll(async () => {
  await proxy?.close();
  await sb?.close();
});

describe(`an import of ${rows} rows through 10% faults`, () => {
  it('finishes in one run with every row reported correctly', { timeout: 600_000 }, async () => {
    sb = await startTestSandbox();
    // Every tenth request gets the next fault in turn: exactly 10%, every kind, whatever the order of arrival.
    const kinds = ['truncate', 'reset-after', 'rate-limit', 'reset-before', 'delay'] as const;
    proxy = await startFaultProxy(
      sb.baseUrl,
      ({ n }) => (n % 10 === 0 ? kinds[(n / 10) % kinds.length] : undefined),
      5,
    );
    sb.sandbox.origin = proxy.baseUrl; // report links go through the faulty network too
    const dir = tempDir('outreach-faulty-');
    const lines = ['First Name,Last Name,Email,Company'];
    for (let i = 1; i <= rows; i++) lines.push(`F${i},L${i},person${i}@faulty.example,Company ${i % 97}`);
    writeFileSync(join(dir, 'leads.csv'), `${lines.join('\n')}\n`);

    const env = { OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: testKey };
    const argv = ['--max-retries', '8', 'prospects', 'import', 'leads.csv', '--wait', '--json'];
    const result = await run([...argv, '--chunk-size', String(chunkRows)], { env, cwd: dir });
    expect(result.stderr).not.toContain('error:');
    expect(result.code).toBe(0);
    const chunks = Math.ceil(rows / chunkRows);
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: rows,
      sent: rows,
      rejected: 0,
      succeeded: rows,
      failed: 0,
      chunks,
    });

    // In the sandbox: each person exactly once.
    const imported = allProspects(sb).filter((p) => p.email.endsWith('@faulty.example'));
    expect(imported).toHaveLength(rows);
    expect(new Set(imported.map((p) => p.email)).size).toBe(rows);

    // A chunk went again only when an answer was lost on the way back: never once it had been answered.
    const posts = proxy.log.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/prospects/import'));
    const arrived = posts.filter((r) => r.fault !== 'reset-before' && r.fault !== 'rate-limit');
    const answerLost = arrived.filter((r) => r.fault === 'reset-after' || r.fault === 'truncate');
    expect(arrived.length).toBe(chunks + answerLost.length);
    expect(new Set(proxy.log.map((r) => r.fault).filter(Boolean)).size).toBe(kinds.length);
    if (process.env.IMPORT_FAULT_ROWS) {
      const faults: Record<string, number> = {};
      for (const r of proxy.log) if (r.fault) faults[r.fault] = (faults[r.fault] ?? 0) + 1;
      console.log(
        JSON.stringify({
          rows,
          chunks,
          requests: proxy.log.length,
          faults,
          chunkPosts: posts.length,
          resent: answerLost.length,
        }),
      );
    }

    const results = readFileSync(join(dir, 'leads.results.csv'), 'utf8').trim().split('\n').slice(1);
    expect(results).toHaveLength(rows);
    expect(results.filter((line) => line.split(',')[2] !== 'succeeded')).toEqual([]);
    expect(results[0]!.split(',').slice(0, 2)).toEqual(['2', 'person1@faulty.example']);
  });
});
