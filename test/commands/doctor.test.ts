// outreach doctor: a checklist of this setup, each problem with its fix, exit 1 when any check fails.
import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { version } from 'node:process';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const nodeLine = `✓ Node.js        ${version} (needs 20.18 or newer)`;

describe('outreach doctor', () => {
  it('passes every check against a service that takes the key, saying where each setting came from', async () => {
    sb = await startTestSandbox();
    const configDir = tempDir();
    const result = await run(['doctor'], { env: sb.env, configDir });
    const host = new URL(sb.baseUrl).host;
    expect(result.stdout).toBe(
      [
        nodeLine,
        `✓ Config file    none yet at ${join(configDir, 'config.json')}`,
        '✓ Profile        default (from the default)',
        '✓ Timeouts       request 60 s (default), connect 5 s (default)',
        `✓ Base URL       ${sb.baseUrl} (from OUTREACH_BASE_URL)`,
        '✓ API key        sk_t************1706 (from OUTREACH_API_KEY)',
        `✓ Service        ${host} answered in 0 ms`,
        '✓ Key accepted   an authenticated request succeeded',
        "✓ Clock          in step with the service's",
        '✓ Sandbox state  none (--sandbox has not been used with this config folder)',
        'All 10 checks passed.',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
  });

  it('fails a refused key, a config others can read, and a clock ten minutes off, each with its fix (exit 1)', async () => {
    sb = await startTestSandbox();
    const configDir = tempDir();
    mkdirSync(configDir, { recursive: true });
    const configPath = join(configDir, 'config.json');
    writeFileSync(
      configPath,
      JSON.stringify({ profiles: { work: { baseUrl: sb.baseUrl, apiKey: 'sk_wrong_key_000' } } }),
    );
    chmodSync(configPath, 0o644);
    chmodSync(configDir, 0o700);
    const refused = await run(['-p', 'work', 'doctor'], { env: {}, configDir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(
      `✗ Config file    ${configPath} can be read by other users (mode 644)\n` +
        `                 fix: chmod 600 ${configPath}\n` +
        '✓ Profile        work (from --profile)\n' +
        '✓ Timeouts       request 60 s (default), connect 5 s (default)\n' +
        `✓ Base URL       ${sb.baseUrl} (from profile "work")\n` +
        '✓ API key        sk_w********_000 (from profile "work")\n',
    );
    expect(refused.stdout).toMatch(/✗ Key accepted {3}.*\n {17}fix: .*auth login/);
    expect(refused.stdout).toMatch(/\n2 of 9 checks failed\.\n$/);

    await sb.request('POST', '/_sandbox/clock', { advanceMs: 600_000 });
    const skewed = await run(['doctor', '--json'], { env: sb.env });
    expect(skewed.code).toBe(1);
    const report = JSON.parse(skewed.stdout);
    expect(report.ok).toBe(false);
    expect(report.checks.find((c: { name: string }) => c.name === 'Clock')).toEqual({
      name: 'Clock',
      ok: false,
      detail: "600 s behind the service's",
      fix: 'Set the system clock (for example: sudo timedatectl set-ntp true).',
    });
  });

  it('says when the service cannot be reached, naming where the base URL was set', async () => {
    const refusing = await refusingUrl();
    // A one-letter key (a typo) is hidden where it stands alone, not inside the words of the message.
    const result = await run(['--base-url', refusing, '--connect-timeout', '2', 'doctor'], {
      env: { OUTREACH_API_KEY: 'x' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `✗ Service        GET /v1/unibox/categories failed: connection refused (${refusing})\n` +
        '                 fix: Nothing is listening there. Check the base URL (set by --base-url).\n',
    );
    expect(result.stdout).toContain('✓ Timeouts       request 60 s (default), connect 2 s (--connect-timeout)\n');
    expect(result.stdout).not.toContain('Key accepted');
  });

  it('reports a base URL that is not one under Base URL, with the fix', async () => {
    const result = await run(['doctor'], {
      env: { OUTREACH_BASE_URL: 'notaurl', OUTREACH_API_KEY: 'sk_test_1234567890' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '✗ Base URL       OUTREACH_BASE_URL: "notaurl" is not a URL\n' +
        '                 fix: Example: https://open-api.saleshandy.com\n',
    );
  });

  it('fails a profile asked for by name that is not there, by --profile or OUTREACH_PROFILE, with the fix', async () => {
    const configDir = tempDir();
    const byFlag = await run(['-p', 'nope', 'doctor'], { configDir });
    const byEnv = await run(['doctor'], { configDir, env: { OUTREACH_PROFILE: 'nope' } });
    for (const [result, source] of [
      [byFlag, '--profile'],
      [byEnv, 'OUTREACH_PROFILE'],
    ] as const) {
      expect(result.code).toBe(1);
      expect(result.stdout).toContain(
        `✗ Profile        no profile named "nope" (from ${source})\n` +
          '                 fix: List them with `outreach profiles list`, or create it with `outreach auth login --profile NAME`.\n' +
          '✓ Timeouts',
      );
      expect(result.stdout).not.toContain('API key');
    }
  });

  it('reports the --sandbox state and its size', async () => {
    const configDir = tempDir();
    expect((await run(['--sandbox', 'inbox', 'categories'], { configDir })).code).toBe(0);
    const result = await run(['--sandbox', 'doctor'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '✓ Base URL       the in-process sandbox (from --sandbox): no account, no network\n',
    );
    expect(result.stdout).toMatch(
      new RegExp(
        `✓ Sandbox state  \\d+ KB in \\d+ files at ${join(configDir, 'sandbox')} \\(outreach sandbox reset restores`,
      ),
    );
  });
});
