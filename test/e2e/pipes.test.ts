// A reader that closes stdout early (`outreach ... | head`) ends the command quietly with exit 141, and loses nothing.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin } from '../helpers/spawn.js';

describe('closed stdout', () => {
  it('ends --help quietly with exit 141', async () => {
    const result = await runBin(['--help'], { env: cleanEnv(), closeStdout: true });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 141, stderr: '' });
  });

  it('stops paging a list and exits 141 without a word', async () => {
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() });
    for (const argv of [
      ['--sandbox', 'tasks', 'list', '--all', '--ndjson'],
      ['--sandbox', 'schedules', 'list', '--json'],
    ]) {
      const result = await runBin(argv, { env, closeStdout: true });
      expect({ argv, code: result.code, stderr: result.stderr }).toEqual({ argv, code: 141, stderr: '' });
    }
  });

  it('ends a CSV export quietly and keeps the --sandbox state written before it', async () => {
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() });
    expect((await runBin(['--sandbox', 'dnc', 'add', 'dncGlobal1', 'kept@example.com'], { env })).code).toBe(0);
    const exported = await runBin(['--sandbox', 'dnc', 'export', 'dncGlobal1'], { env, closeStdout: true });
    expect({ code: exported.code, stderr: exported.stderr }).toEqual({ code: 141, stderr: '' });
    const found = await runBin(['--sandbox', 'dnc', 'search', 'kept@example.com'], { env });
    expect(found.stdout).toContain('dncGlobal1\tGlobal do-not-contact\tkept@example.com\temail');
  });
});
