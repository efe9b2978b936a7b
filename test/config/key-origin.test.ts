// A stored profile key goes only to the base URL it was stored for (issue 27 item 14): --base-url or
// OUTREACH_BASE_URL pointing elsewhere once sent it there. Another URL takes its key from OUTREACH_API_KEY or from a
// profile stored for that URL; otherwise the command is refused (exit 4) naming the profile and its URL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';

const otherKey = 'sk_other_service_0123456789';
const defaultUrl = 'https://open-api.saleshandy.com';

/** A second local service on another port: it records every request's headers and answers {"ok": true}. */
async function startRecorder() {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let sb: TestSandbox;
let other: Awaited<ReturnType<typeof startRecorder>>;
beforeAll(async () => {
  sb = await startTestSandbox();
  other = await startRecorder();
});
afterAll(async () => {
  // Whatever each test tried, the second service never saw the stored key.
  expect(other.seen.map((h) => h['x-api-key'])).not.toContain(testKey);
  await other.close();
  await sb.close();
});

/** A config folder whose current profile "work" holds testKey for the home sandbox (plus any other profiles). */
function configWith(profiles: Record<string, { baseUrl?: string; apiKey?: string }> = {}): string {
  const configDir = tempDir();
  const config = { currentProfile: 'work', profiles: { work: { baseUrl: sb.baseUrl, apiKey: testKey }, ...profiles } };
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(config), { mode: 0o600 });
  return configDir;
}

const refusal = (profile: string, home: string, url: string, source: string) =>
  `error: the key stored in profile "${profile}" is for ${home}, not ${url} (from ${source}); ` +
  'it is sent only to its own URL\n' +
  `hint: For ${url}, set OUTREACH_API_KEY, or store a key for it: ` +
  `outreach auth login --profile NAME --base-url ${url} (then add --profile NAME).\n`;

describe('a stored key and another base URL', () => {
  it('is refused with --base-url: exit 4, the profile and its URL named, nothing sent', async () => {
    const configDir = configWith();
    const result = await run(['--base-url', other.url, 'api', 'GET', '/v1/unibox/categories'], { configDir });
    expect(result).toMatchObject({
      code: 4,
      stdout: '',
      stderr: refusal('work', sb.baseUrl, other.url, '--base-url'),
    });
    expect(other.seen).toEqual([]);
  });

  it('is refused with OUTREACH_BASE_URL, also for a key stored for the default URL', async () => {
    const env = { OUTREACH_BASE_URL: other.url };
    const fromEnv = await run(['inbox', 'categories'], { configDir: configWith(), env });
    expect({ code: fromEnv.code, stderr: fromEnv.stderr }).toEqual({
      code: 4,
      stderr: refusal('work', sb.baseUrl, other.url, 'OUTREACH_BASE_URL'),
    });
    const plain = await run(['-p', 'plain', 'inbox', 'categories'], {
      configDir: configWith({ plain: { apiKey: testKey } }),
      env,
    });
    expect({ code: plain.code, stderr: plain.stderr }).toEqual({
      code: 4,
      stderr: refusal('plain', defaultUrl, other.url, 'OUTREACH_BASE_URL'),
    });
    expect(other.seen).toEqual([]);
  });

  it('is refused by auth status and shown by doctor, before anything is sent', async () => {
    const configDir = configWith();
    const status = await run(['--base-url', other.url, 'auth', 'status'], { configDir });
    expect({ code: status.code, stderr: status.stderr }).toEqual({
      code: 4,
      stderr: refusal('work', sb.baseUrl, other.url, '--base-url'),
    });
    const doctor = await run(['--base-url', other.url, 'doctor'], { configDir });
    expect(doctor.stdout).toContain(
      `✗ API key        the key stored in profile "work" is for ${sb.baseUrl}, not ${other.url} (from --base-url)`,
    );
    expect(other.seen).toEqual([]);
  });

  it('names a profile stored for that URL, and uses its key when it is chosen', async () => {
    const configDir = configWith({ staging: { baseUrl: `${other.url}/v1/`, apiKey: otherKey } });
    const refused = await run(['--base-url', other.url, 'api', 'GET', '/v1/unibox/categories'], { configDir });
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 4,
      stderr:
        `error: the key stored in profile "work" is for ${sb.baseUrl}, not ${other.url} (from --base-url); ` +
        'it is sent only to its own URL\n' +
        `hint: Profile "staging" has a key for ${other.url}: add --profile staging.\n`,
    });
    expect(other.seen).toEqual([]);
    const chosen = await run(['-p', 'staging', '--base-url', other.url, 'api', 'GET', '/v1/unibox/categories'], {
      configDir,
    });
    expect({ code: chosen.code, stdout: chosen.stdout }).toEqual({ code: 0, stdout: '{\n  "ok": true\n}\n' });
    expect(other.seen.at(-1)!['x-api-key']).toBe(otherKey);
  });

  it('works with OUTREACH_API_KEY, which is sent instead', async () => {
    const seenBefore = other.seen.length;
    const result = await run(['api', 'GET', '/v1/unibox/categories'], {
      configDir: configWith(),
      env: { OUTREACH_BASE_URL: other.url, OUTREACH_API_KEY: otherKey },
    });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(other.seen.slice(seenBefore).map((h) => h['x-api-key'])).toEqual([otherKey]);
  });

  it('still goes to its own URL, however that URL is written, and --sandbox keeps its own key', async () => {
    const configDir = configWith();
    expect((await run(['inbox', 'categories'], { configDir })).code).toBe(0);
    const same = await run(['--base-url', `${sb.baseUrl}/v1/`, 'inbox', 'categories'], { configDir });
    expect({ code: same.code, stderr: same.stderr }).toEqual({ code: 0, stderr: '' });
    const sandbox = await run(['--sandbox', 'inbox', 'categories'], {
      configDir,
      env: { OUTREACH_BASE_URL: other.url },
    });
    // The variable is said to go unused: nothing goes to it, the sandbox's own key to the sandbox.
    expect({ code: sandbox.code, stderr: sandbox.stderr }).toEqual({
      code: 0,
      stderr: 'warning: --sandbox: OUTREACH_BASE_URL is set and not used (the in-process sandbox answers instead)\n',
    });
  });
});
