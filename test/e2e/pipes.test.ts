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

describe('stdout that breaks', () => {
  it('ends a long export quietly too, when the reader leaves in the middle of it', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = tempDir();
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: dir });
    writeFileSync(join(dir, 'many.txt'), Array.from({ length: 3000 }, (_, i) => `p${i}@many.example`).join('\n'));
    expect(
      (await runBin(['--sandbox', 'dnc', 'add', 'dncGlobal1', '--file', join(dir, 'many.txt')], { env })).code,
    ).toBe(0);
    const exported = await runBin(['--sandbox', 'dnc', 'export', 'dncGlobal1'], { env, closeStdout: true });
    expect({ code: exported.code, stderr: exported.stderr }).toEqual({ code: 141, stderr: '' });
  });

  it('exits 1 with the reason when stdout fails for another cause (a full disk)', async () => {
    const { openSync, closeSync } = await import('node:fs');
    const { spawn } = await import('node:child_process');
    const { binPath } = await import('../helpers/spawn.js');
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [binPath, '--help'], { env: cleanEnv(), stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('close', (exit) => resolve(exit)));
    expect(code).toBe(1);
    expect(stderr).toBe('error: cannot write to stdout: ENOSPC: no space left on device, write\n');
  });
});

describe('a list written while its job runs', () => {
  it('enrich contacts --wait stops when its reader leaves, and still writes who was not enriched', async () => {
    const { readdirSync, readFileSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { startSandboxProcess } = await import('../helpers/spawn.js');
    const dir = tempDir();
    const sandbox = await startSandboxProcess(
      ['--enrichment-seconds', '0', '--key', 'sk_pipes_test_1'],
      cleanEnv({ OUTREACH_CONFIG_DIR: dir }),
    );
    try {
      const env = cleanEnv({
        OUTREACH_CONFIG_DIR: dir,
        OUTREACH_BASE_URL: sandbox.baseUrl,
        OUTREACH_API_KEY: sandbox.key,
      });
      const search = await runBin(['people', 'search', '--limit', '300', '--csv'], { env });
      writeFileSync(join(dir, 'leads.csv'), search.stdout);
      const enriched = await runBin(
        ['enrich', 'contacts', '--file', join(dir, 'leads.csv'), '--yes', '--wait', '--ndjson'],
        {
          env,
          closeStdout: true,
        },
      );
      expect(enriched.code).toBe(141);
      expect(enriched.stderr).toMatch(/Enrichment stopped: .* not enriched: \S+leads\.not-enriched\.csv/);
      // The file is there under its name (not left as a temporary file), everyone not listed in it with why.
      expect(readdirSync(dir).filter((name) => name.includes('not-enriched'))).toEqual(['leads.not-enriched.csv']);
      expect(readFileSync(join(dir, 'leads.not-enriched.csv'), 'utf8').split('\n')[0]).toMatch(/,Reason$/);
    } finally {
      await sandbox.stop();
    }
  });

  it('enrich contacts --wait that fails before finding anyone lists nothing: not even a header', async () => {
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() });
    const result = await runBin(['enrich', 'contacts', '--lead-id', '1', '--yes', '--wait', '--csv'], { env });
    expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 4, stdout: '' });
  });
});
