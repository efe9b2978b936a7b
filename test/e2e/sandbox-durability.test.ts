// `sandbox start --state FILE` answers a write only once it is on disk: kill -9 right after loses nothing, and ids
// handed out before the kill are never handed out again.
import { copyFileSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin, startSandboxProcess } from '../helpers/spawn.js';

const key = 'sk_durable_0123456789';

describe('sandbox start --state', () => {
  it('keeps every answered write and never reuses an import id across kill -9', async () => {
    const dir = tempDir('outreach-durable-');
    const state = join(dir, 'state.json');
    copyFileSync(new URL('../../fixtures/prospects/sample.csv', import.meta.url), join(dir, 'sample.csv'));
    const start = () => startSandboxProcess(['--key', key, '--state', state], cleanEnv());
    const cli = (baseUrl: string, argv: string[]) =>
      runBin(argv, {
        env: cleanEnv({ OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: key, OUTREACH_CONFIG_DIR: dir }),
        cwd: dir,
      });

    const first = await start();
    expect((await cli(first.baseUrl, ['dnc', 'add', 'dncGlobal1', 'durable@example.com'])).code).toBe(0);
    const imported = await cli(first.baseUrl, ['prospects', 'import', 'sample.csv', '--no-wait', '--json']);
    const [firstId] = JSON.parse(imported.stdout).requestIds as string[];
    first.child.kill('SIGKILL');
    await once(first.child, 'close');

    const second = await start();
    try {
      const found = await cli(second.baseUrl, ['dnc', 'search', 'durable@example.com']);
      expect(found.stdout).toContain('dncGlobal1\tGlobal do-not-contact\tdurable@example.com\temail');
      const status = await cli(second.baseUrl, ['prospects', 'import-status', firstId!, '--json']);
      expect(status.code).toBe(0);
      const again = await cli(second.baseUrl, [
        'prospects',
        'import',
        'sample.csv',
        '--restart',
        '--no-wait',
        '--json',
      ]);
      const [secondId] = JSON.parse(again.stdout).requestIds as string[];
      expect(secondId).not.toBe(firstId);
    } finally {
      await second.stop();
    }
  });
});
