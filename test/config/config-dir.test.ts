// The config folder (issue 27 item 15): OUTREACH_CONFIG_DIR set to an existing shared folder (mode 1777) was chmodded
// to 700. A folder the tool creates is 0700; one that exists keeps its mode; one others can write is refused.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());

const mode = (path: string) => (statSync(path).mode & 0o7777).toString(8);
const login = (configDir: string) =>
  run(['auth', 'login', '--with-key', '--base-url', sb.baseUrl], { configDir, stdin: testKey });

/** A folder with exactly this mode (chmod: the umask does not apply). */
function folder(bits: number): string {
  const dir = join(tempDir(), 'config');
  mkdirSync(dir);
  chmodSync(dir, bits);
  return dir;
}

describe('the config folder', () => {
  it('refuses a shared folder (1777), leaves its mode alone and writes nothing in it', async () => {
    const dir = folder(0o1777);
    const refusal =
      `error: ${dir}: can be written by other users (mode 1777); refusing to keep or read an API key there\n` +
      'hint: It is a shared folder: set OUTREACH_CONFIG_DIR to a folder of your own ' +
      '(mkdir -m 700 ~/.config/outreach), or unset it.\n';
    const result = await login(dir);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: refusal });
    // Reading is refused too: a profile planted there could send an OUTREACH_API_KEY to another service.
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ profiles: { default: { baseUrl: 'https://evil.test' } } }),
    );
    const read = await run(['inbox', 'categories'], { configDir: dir, env: { OUTREACH_API_KEY: testKey } });
    expect({ code: read.code, stderr: read.stderr }).toEqual({ code: 2, stderr: refusal });
    expect(mode(dir)).toBe('1777');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('refuses a group-writable folder with the chmod that fixes it', async () => {
    const dir = folder(0o770);
    const result = await login(dir);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr:
        `error: ${dir}: can be written by other users (mode 770); refusing to keep or read an API key there\n` +
        `hint: Run: chmod go-w ${dir}\n`,
    });
    expect(mode(dir)).toBe('770');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('uses an existing 0755 folder as it is, with a 0600 config file and no warning', async () => {
    const dir = folder(0o755);
    const result = await login(dir);
    expect(result.code).toBe(0);
    expect(mode(dir)).toBe('755');
    expect(mode(join(dir, 'config.json'))).toBe('600');
    const used = await run(['inbox', 'categories'], { configDir: dir });
    expect({ code: used.code, stderr: used.stderr }).toEqual({ code: 0, stderr: '' });
    expect((await run(['profiles', 'use', 'default'], { configDir: dir })).code).toBe(0);
    expect(mode(dir)).toBe('755');
    expect(mode(join(dir, 'config.json'))).toBe('600');
  });

  it('creates a missing folder (and its parents) 0700, with a 0600 config file', async () => {
    const parent = join(tempDir(), 'home', '.config');
    const dir = join(parent, 'outreach');
    const result = await login(dir);
    expect(result.code).toBe(0);
    expect(mode(dir)).toBe('700');
    expect(mode(parent)).toBe('700');
    expect(mode(join(dir, 'config.json'))).toBe('600');
  });

  it('creates nothing for a command that only reads the config', async () => {
    const dir = join(tempDir(), 'outreach');
    const result = await run(['inbox', 'categories'], { configDir: dir, env: sb.env });
    expect(result.code).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });

  it("trusts config.json only as this user's own file that no one else can write, never through a link", async () => {
    const dir = folder(0o700);
    const shared = join(tempDir(), 'team-config.json');
    // Another user's planted profile would choose where OUTREACH_API_KEY goes, or receive a key written into it.
    writeFileSync(shared, JSON.stringify({ profiles: { default: { baseUrl: 'http://127.0.0.1:9' } } }));
    symlinkSync(shared, join(dir, 'config.json'));
    const linked = await run(['inbox', 'categories'], { configDir: dir, env: { OUTREACH_API_KEY: testKey } });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(
      `error: ${join(dir, 'config.json')}: is not trusted as a config file: it is a symbolic link\n`,
    );
    const relogin = await login(dir);
    expect(relogin.code).toBe(2);
    expect(readFileSync(shared, 'utf8')).not.toContain(testKey);
    rmSync(join(dir, 'config.json'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: {} }), { mode: 0o622 });
    chmodSync(join(dir, 'config.json'), 0o622);
    const writable = await run(['inbox', 'categories'], { configDir: dir, env: { OUTREACH_API_KEY: testKey } });
    expect(writable.code).toBe(2);
    expect(writable.stderr).toContain('is not trusted as a config file: others may write it (mode 622)');
  });
});
