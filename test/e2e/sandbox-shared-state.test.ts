// One sandbox state shared by processes side by side (issue 28 item 1): eight `--sandbox` commands at once, and
// `--sandbox` commands beside a `sandbox start --state` serving the same database, lose no write and leave the state
// readable; a JSON state of an older version moves into the database on first use and is kept as .bak (item 3).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin, startSandboxProcess } from '../helpers/spawn.js';
import { stateDocument } from '../helpers/state-db.js';
import { ProspectBook } from '../../src/sandbox/prospect-book.js';
import { seedProspects, seedState } from '../../src/sandbox/seed.js';
import { saveState } from '../../src/sandbox/state-file.js';

/** A file of `count` values for DNC list adds, each named after `tag`. */
function values(dir: string, tag: string, count: number): string {
  const path = join(dir, `${tag}.txt`);
  writeFileSync(path, Array.from({ length: count }, (_, i) => `${tag}-${i}@shared.example`).join('\n') + '\n');
  return path;
}

const dncValues = (stateDb: string) =>
  new Set(
    (stateDocument(stateDb).dncLists as Array<{ items: Array<{ value: string }> }>).flatMap((list) =>
      list.items.map((item) => item.value),
    ),
  );

describe('a shared sandbox state', () => {
  it('loses no write when eight --sandbox commands run at once', { timeout: 120_000 }, async () => {
    const configDir = tempDir('outreach-shared-');
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: configDir });
    // Imports, DNC adds and task completions, all at once.
    writeFileSync(
      join(configDir, 'leads.csv'),
      'Email,First Name\n' + Array.from({ length: 300 }, (_, i) => `lead${i}@shared.example,L${i}`).join('\n') + '\n',
    );
    const runs = [
      ...['w1', 'w2', 'w3', 'w4', 'w5'].map((tag) =>
        runBin(['--sandbox', 'dnc', 'add', 'dncGlobal1', '--file', values(configDir, tag, 400), '-q'], { env }),
      ),
      runBin(['--sandbox', 'prospects', 'import', join(configDir, 'leads.csv'), '--no-wait', '-q'], { env }),
      runBin(['--sandbox', 'tasks', 'complete', 'tk000002', '-q'], { env }),
      runBin(['--sandbox', 'tasks', 'complete', 'tk000004', '-q'], { env }),
    ];
    const results = await Promise.all(runs);
    expect(results.map((r) => ({ code: r.code, stderr: r.stderr }))).toEqual(
      results.map(() => ({ code: 0, stderr: '' })),
    );
    const stateDb = join(configDir, 'sandbox', 'state.db');
    const stored = dncValues(stateDb);
    for (const tag of ['w1', 'w2', 'w3', 'w4', 'w5'])
      for (let i = 0; i < 400; i++) expect(stored.has(`${tag}-${i}@shared.example`)).toBe(true);
    const tasks = stateDocument(stateDb).tasks as Array<{ taskId: string; doneStatus?: string }>;
    expect(tasks.filter((t) => ['tk000002', 'tk000004'].includes(t.taskId)).map((t) => t.doneStatus)).toEqual([
      'completed',
      'completed',
    ]);
    const prospects = await runBin(['sandbox', 'export', 'prospects', '--ndjson'], { env });
    expect(prospects.stdout.split('\n').filter((line) => line.includes('@shared.example'))).toHaveLength(300);
  });

  it(
    'shares one database between sandbox start --state and --sandbox commands beside it',
    { timeout: 120_000 },
    async () => {
      const configDir = tempDir('outreach-shared-served-');
      const stateDb = join(configDir, 'sandbox', 'state.db');
      const key = 'sk_shared_state_0123456789';
      const served = await startSandboxProcess(['--key', key, '--state', stateDb], cleanEnv());
      try {
        const local = cleanEnv({ OUTREACH_CONFIG_DIR: configDir });
        const remote = cleanEnv({
          OUTREACH_BASE_URL: served.baseUrl,
          OUTREACH_API_KEY: key,
          OUTREACH_CONFIG_DIR: tempDir(),
        });
        const results = await Promise.all([
          ...['a1', 'a2', 'a3'].map((tag) =>
            runBin(['--sandbox', 'dnc', 'add', 'dncGlobal1', '--file', values(configDir, tag, 300), '-q'], {
              env: local,
            }),
          ),
          ...['b1', 'b2', 'b3'].map((tag) =>
            runBin(['dnc', 'add', 'dncGlobal1', '--file', values(configDir, tag, 300), '-q'], { env: remote }),
          ),
        ]);
        expect(results.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
        // What the --sandbox commands wrote, the served sandbox reads, and the other way round.
        const found = await runBin(['dnc', 'search', 'a2-7@shared.example'], { env: remote });
        expect(found.stdout).toContain('a2-7@shared.example');
        const stored = dncValues(stateDb);
        for (const tag of ['a1', 'a2', 'a3', 'b1', 'b2', 'b3'])
          for (let i = 0; i < 300; i++) expect(stored.has(`${tag}-${i}@shared.example`)).toBe(true);
      } finally {
        await served.stop();
      }
    },
  );

  it('moves a JSON state of an older version into the database on first use, keeping it as .bak', async () => {
    const configDir = tempDir('outreach-shared-old-');
    const legacy = join(configDir, 'sandbox', 'state.json');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(configDir, 'sandbox'), { recursive: true });
    const prospects = ProspectBook.of(seedProspects());
    saveState(legacy, { main: seedState(Date.UTC(2026, 10, 1)), prospects: prospects.changes() });
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: configDir });
    const verified = await runBin(['--sandbox', 'prospects', 'verify', 'ada@analytical.io', '--json'], { env });
    expect(verified.code).toBe(0);
    expect(existsSync(join(configDir, 'sandbox', 'state.db'))).toBe(true);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(`${legacy}.bak`)).toBe(true);
    expect(stateDocument(join(configDir, 'sandbox', 'state.db')).seededAt).toBe(Date.UTC(2026, 10, 1));
  });
});
