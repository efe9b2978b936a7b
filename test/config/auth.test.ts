// Profiles and credentials: login, status, logout, precedence, file modes, and the key never shown.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('auth login / status / logout', () => {
  it('stores a key read from stdin after a live check, in a 0600 file inside a 0700 folder', async () => {
    const configDir = join(tempDir(), 'outreach');
    const login = await run(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], {
      configDir,
      stdin: `${testKey}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe(
      `Logged in: profile "default" (${sb.baseUrl}), key stored in ${join(configDir, 'config.json')}.\n`,
    );
    expect(mode(configDir)).toBe('700');
    expect(mode(join(configDir, 'config.json'))).toBe('600');
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8'))).toEqual({
      profiles: { default: { baseUrl: sb.baseUrl, apiKey: testKey } },
      currentProfile: 'default',
    });

    const status = await run(['auth', 'status'], { configDir });
    expect(status.code).toBe(0);
    expect(status.stdout).toBe(
      `profile\tdefault\nbase url\t${sb.baseUrl}\nkey\tsk_t************1706\nstored in\t${join(configDir, 'config.json')}\nlive check\tok: key accepted\n`,
    );

    const categories = await run(['inbox', 'categories'], { configDir });
    expect(categories.code).toBe(0);

    const logout = await run(['auth', 'logout'], { configDir });
    expect(logout.code).toBe(0);
    expect(readFileSync(join(configDir, 'config.json'), 'utf8')).not.toContain(testKey);
    expect(mode(join(configDir, 'config.json'))).toBe('600');
    const after = await run(['inbox', 'categories'], { configDir });
    expect(after.code).toBe(4);
    expect(after.stderr).toBe(
      'error: no API key for profile "default"\nhint: Run `outreach auth login`, set OUTREACH_API_KEY, or try everything offline with --sandbox.\n',
    );
  });

  it('refuses a wrong key with exit 4 and stores nothing', async () => {
    const configDir = tempDir();
    const login = await run(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], {
      configDir,
      stdin: 'sk_wrong_0000000000\n',
    });
    expect(login.code).toBe(4);
    expect(login.stderr).toContain(
      'error: authentication failed (GET /v1/unibox/categories: HTTP 401, code 1001): Invalid token: the API key is not valid',
    );
    expect(login.stderr).not.toContain('sk_wrong_0000000000');
    const profiles = await run(['profiles', 'list'], { configDir });
    expect(profiles.stdout).toBe('');
  });

  it('asks for the key with masked input on a terminal', async () => {
    const configDir = tempDir();
    const login = await run(['auth', 'login', '--base-url', sb.baseUrl], {
      configDir,
      answers: ['', testKey],
      stdinIsTTY: true,
      stderrIsTTY: true,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toContain('> Paste the key from the app: Settings > API keys');
    expect(login.stderr).toContain('API key');
    expect(login.stderr).toContain('*'.repeat(testKey.length));
    expect(login.stderr + login.stdout).not.toContain(testKey);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.apiKey).toBe(testKey);
  });

  it('asks for no key on argv and fails without a terminal or --with-key', async () => {
    const result = await run(['auth', 'login'], { configDir: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: no key given and no terminal to ask on');
  });

  it('reports a refused key in status with exit 4, never printing it', async () => {
    const env = { OUTREACH_BASE_URL: sb.baseUrl, OUTREACH_API_KEY: 'sk_live_abcdefghijklmnop' };
    const status = await run(['auth', 'status', '--debug'], { configDir: tempDir(), env });
    expect(status.code).toBe(4);
    expect(status.stdout).toContain('stored in\tenvironment variable OUTREACH_API_KEY\n');
    expect(status.stdout).toContain('key\tsk_l************mnop\n');
    expect(status.stdout + status.stderr).not.toContain('sk_live_abcdefghijklmnop');
    expect(status.stderr).toMatch(
      /^error: the live check failed: .+\nhint: Store a working key with `outreach auth login`/m,
    );
  });

  it('checks the sandbox key under --sandbox, not a stored profile', async () => {
    const status = await run(['--sandbox', 'auth', 'status', '--json'], { configDir: tempDir() });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      profile: 'sandbox',
      keySource: 'the sandbox (--sandbox)',
      live: { ok: true },
    });
  });
});

describe('profiles and precedence', () => {
  it('switches, lists and removes profiles; flag beats env beats current profile', async () => {
    const configDir = tempDir();
    await run(['auth', 'login', '--with-key', '--no-verify', '-p', 'work', '--base-url', sb.baseUrl], {
      configDir,
      stdin: testKey,
    });
    const refusing = await refusingUrl();
    await run(['auth', 'login', '--with-key', '--no-verify', '-p', 'other', '--base-url', refusing], {
      configDir,
      stdin: 'sk_other_1234567890',
    });
    const list = await run(['profiles', 'list'], { configDir });
    expect(list.stdout).toBe(
      `*\twork\t${sb.baseUrl}\tsk_t************1706\n\tother\t${refusing}\tsk_o***********7890\n`,
    );

    expect((await run(['inbox', 'categories'], { configDir })).code).toBe(0);
    expect((await run(['inbox', 'categories'], { configDir, env: { OUTREACH_PROFILE: 'other' } })).code).toBe(1);
    expect(
      (await run(['-p', 'work', 'inbox', 'categories'], { configDir, env: { OUTREACH_PROFILE: 'other' } })).code,
    ).toBe(0);
    // --base-url beats the profile's (with a key for it: the stored one goes only to its own URL, key-origin.test.ts).
    const flagWins = await run(['--base-url', refusing, '--max-retries', '0', 'inbox', 'categories'], {
      configDir,
      env: { OUTREACH_API_KEY: testKey },
    });
    expect(flagWins.code).toBe(1);
    expect(
      (await run(['inbox', 'categories'], { configDir, env: { OUTREACH_API_KEY: 'sk_env_wrong_12345' } })).code,
    ).toBe(4);

    expect((await run(['profiles', 'use', 'other'], { configDir })).code).toBe(0);
    expect((await run(['profiles', 'list'], { configDir })).stdout.split('\n')[1]).toMatch(/^\*\tother/);
    // Removing a profile forgets its key: without a terminal to ask on it needs --yes, and keeps the profile till then.
    const unasked = await run(['profiles', 'remove', 'other'], { configDir });
    expect(unasked.code).toBe(2);
    expect(unasked.stderr.split('\n')[0]).toBe(
      'error: refusing to remove profile "other" without --yes (no terminal to ask on)',
    );
    expect((await run(['profiles', 'list'], { configDir })).stdout).toContain('\tother\t');
    expect((await run(['profiles', 'remove', 'other', '--yes'], { configDir })).code).toBe(0);
    const missing = await run(['profiles', 'use', 'other'], { configDir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error: no profile named "other"');
  });

  it('refuses plain http except to loopback, before sending anything', async () => {
    const result = await run(['inbox', 'categories'], {
      env: { OUTREACH_BASE_URL: 'http://api.example.com', OUTREACH_API_KEY: 'sk_x_123456789' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: OUTREACH_BASE_URL: plain http is refused for api.example.com');
  });
});

describe('the config file on disk', () => {
  it('checks a key against OUTREACH_BASE_URL and stores it with that URL, the only one it is sent to', async () => {
    const configDir = tempDir();
    const login = await run(['auth', 'login', '--with-key'], {
      configDir,
      env: { OUTREACH_BASE_URL: sb.baseUrl },
      stdin: testKey,
    });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe(
      `Logged in: profile "default" (${sb.baseUrl}), key stored in ${join(configDir, 'config.json')}.\n`,
    );
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles).toEqual({
      default: { baseUrl: sb.baseUrl, apiKey: testKey },
    });
    expect((await run(['inbox', 'categories'], { configDir, env: { OUTREACH_BASE_URL: sb.baseUrl } })).code).toBe(0);
  });

  it('warns, with the exact chmod, when other users can read the key', async () => {
    const configDir = tempDir();
    await run(['auth', 'login', '--with-key', '--no-verify', '--base-url', sb.baseUrl], { configDir, stdin: testKey });
    const file = join(configDir, 'config.json');
    chmodSync(file, 0o644);
    const result = await run(['inbox', 'categories'], { configDir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(`warning: ${file} can be read by other users (mode 644); run: chmod 600 ${file}\n`);
  });

  it('stops with exit 2, the path and the fix when the config file is corrupt', async () => {
    const configDir = join(tempDir(), 'outreach');
    mkdirSync(configDir, { mode: 0o700 });
    const file = join(configDir, 'config.json');
    writeFileSync(file, '{"profiles": {"default": ', { mode: 0o600 });
    for (const argv of [
      ['inbox', 'categories'],
      ['auth', 'login', '--with-key', '--no-verify'],
    ]) {
      const result = await run(argv, { configDir, stdin: testKey });
      expect(result.code).toBe(2);
      expect(result.stderr.split('\n').slice(0, 1)[0]).toMatch(
        new RegExp(`^error: ${file.replace(/[.]/g, '\\.')}: is not valid JSON \\(.+\\)$`),
      );
      expect(result.stderr.split('\n')[1]).toBe(
        `hint: Fix it in an editor, or move it aside (mv ${file} ${file}.bad) and run \`outreach auth login\` again.`,
      );
    }
    writeFileSync(file, '[1, 2]');
    const shape = await run(['inbox', 'categories'], { configDir });
    expect(shape.code).toBe(2);
    expect(shape.stderr.split('\n')[0]).toBe(`error: ${file}: is not an outreach config: expected {"profiles": {...}}`);
  });
});

describe('the key never appears in captured output', () => {
  it('is redacted from --debug logs, errors and every format', async () => {
    const env = sb.env;
    const outputs: string[] = [];
    for (const argv of [
      ['--debug', 'inbox', 'categories'],
      ['--debug', '--json', 'inbox', 'categories'],
      ['--debug', 'api', 'GET', '/v1/unibox/categories'],
      ['--debug', 'api', 'GET', `/v1/nothing/${testKey}`],
      ['--debug', 'auth', 'status'],
    ]) {
      const result = await run(argv, { env, configDir: tempDir() });
      outputs.push(result.stdout, result.stderr);
    }
    const all = outputs.join('\n');
    expect(all).toContain(`[debug] GET ${sb.baseUrl}/v1/unibox/categories -> 200 in`);
    expect(all).toContain(`[debug] GET ${sb.baseUrl}/v1/nothing/*** -> 404 in`);
    expect(all).not.toContain(testKey);
  });
});
