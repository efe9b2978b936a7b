// README's quick start, as written: its two lines are what CI runs (.ci/run: npm ci, then npm test), and the command
// after `npm ci && ` is the first thing a new user types. A README that drifts from the tool turns this red.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv } from '../helpers/spawn.js';

const root = join(import.meta.dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quickStart = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1]?.trim().split('\n') ?? [];

describe("README's quick start", () => {
  it('is two lines: the install with the first command, and the test command CI runs', () => {
    expect(quickStart).toHaveLength(2);
    expect(quickStart[0]).toMatch(/^npm ci && \S/);
    expect(quickStart[1]).toBe('npm test');
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).toMatch(/\nnpm ci\nnpm test\n$/);
  });

  it('runs its first command verbatim: the sample imported into the sandbox, every row', { timeout: 60_000 }, () => {
    const command = quickStart[0]!.slice('npm ci && '.length);
    // As on a fresh clone: no journal of an earlier run (one cut short would ask for --resume).
    rmSync(join(root, 'fixtures/prospects/sample.import-journal'), { force: true });
    const result = spawnSync('/bin/sh', ['-c', command], {
      cwd: root,
      env: cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() }),
      encoding: 'utf8',
      timeout: 55_000,
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'Imported fixtures/prospects/sample.csv: 25 rows read, 25 sent in 1 chunk, 0 rejected, 25 succeeded',
    );
  });
});
