// `outreach sandbox start` takes its key from the environment or stdin, where other local users cannot read it, as well
// as from --key, which every local user can read in the process list (issue 27 item 12). Each test waits for what the
// sandbox prints, never a timer.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { binPath, cleanEnv, runBin } from '../helpers/spawn.js';

interface Started {
  child: ChildProcess;
  baseUrl: string;
  key: string;
  stderr(): string;
}

const running: ChildProcess[] = [];
afterEach(async () => {
  for (const child of running.splice(0))
    if (child.exitCode === null && child.signalCode === null) {
      const closed = once(child, 'close');
      child.kill('SIGINT');
      await closed;
    }
});

/** `sandbox start --port 0 ARGS` with `input` on its stdin; resolves once it printed its address and key. */
async function start(args: string[], env: Record<string, string>, input?: string): Promise<Started> {
  const child = spawn(process.execPath, [binPath, 'sandbox', 'start', '--port', '0', ...args], {
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  running.push(child);
  if (input !== undefined) child.stdin!.end(input);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const printed = await new Promise<{ baseUrl: string; key: string }>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      stdout += d;
      const found = /^base URL: (\S+)\nAPI key: (\S+)\n/.exec(stdout);
      if (found) resolve({ baseUrl: found[1]!, key: found[2]! });
    });
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${stderr}`)));
  });
  return { child, ...printed, stderr: () => stderr };
}

async function status(baseUrl: string, key: string): Promise<number> {
  return (await fetch(`${baseUrl}/v1/unibox/categories`, { headers: { 'x-api-key': key } })).status;
}

/** What other local users read of the process: its command line (Linux). */
function commandLine(child: ChildProcess): string {
  const path = `/proc/${child.pid}/cmdline`;
  return existsSync(path) ? readFileSync(path, 'utf8') : (child.spawnargs ?? []).join('\0');
}

describe('sandbox start: where the key comes from', () => {
  it('takes OUTREACH_SANDBOX_KEY and keeps it out of the command line', async () => {
    const key = 'sk_env_sandbox_0123456789';
    const sandbox = await start([], cleanEnv({ OUTREACH_SANDBOX_KEY: key, OUTREACH_API_KEY: 'sk_env_api_0123456789' }));
    expect(sandbox.key).toBe(key);
    expect(await status(sandbox.baseUrl, key)).toBe(200);
    expect(await status(sandbox.baseUrl, 'sk_env_api_0123456789')).toBe(401);
    expect(commandLine(sandbox.child)).not.toContain(key);
    expect(sandbox.stderr()).not.toContain('warning');
  });

  it('never takes OUTREACH_API_KEY, which may be a real key: the sandbox prints the key it accepts', async () => {
    const sandbox = await start([], cleanEnv({ OUTREACH_API_KEY: 'sk_live_real_0123456789' }));
    expect(sandbox.key).toMatch(/^sk_sandbox_[0-9a-f]{24}$/);
    expect(await status(sandbox.baseUrl, 'sk_live_real_0123456789')).toBe(401);
  });

  it('reads the key from stdin with --key -', async () => {
    const key = 'sk_stdin_0123456789';
    const sandbox = await start(['--key', '-'], cleanEnv({ OUTREACH_SANDBOX_KEY: 'sk_not_this_one_000' }), `${key}\n`);
    expect(sandbox.key).toBe(key);
    expect(await status(sandbox.baseUrl, key)).toBe(200);
    expect(commandLine(sandbox.child)).not.toContain(key);
    expect(sandbox.stderr()).not.toContain('warning');
  });

  it('still takes --key KEY, and warns that other local users can read it', async () => {
    const key = 'sk_argv_0123456789';
    const sandbox = await start(['--key', key], cleanEnv());
    expect(await status(sandbox.baseUrl, key)).toBe(200);
    expect(commandLine(sandbox.child)).toContain(key);
    expect(sandbox.stderr()).toContain(
      'warning: --key is visible to other local users (ps, /proc): pass it in OUTREACH_SANDBOX_KEY, or on stdin with --key -\n',
    );
  });

  it('refuses an empty stdin and a short key from the environment, exit 2', async () => {
    const empty = await runBin(['sandbox', 'start', '--port', '0', '--key', '-'], { env: cleanEnv(), input: '' });
    expect({ code: empty.code, stdout: empty.stdout, stderr: empty.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --key -: stdin was empty\nhint: Example: outreach sandbox start --key - < key.txt\n',
    });
    const short = await runBin(['sandbox', 'start', '--port', '0'], {
      env: cleanEnv({ OUTREACH_SANDBOX_KEY: 'short' }),
    });
    expect({ code: short.code, stderr: short.stderr }).toEqual({
      code: 2,
      stderr: 'error: OUTREACH_SANDBOX_KEY must be at least 8 characters\nhint: Set it to another key, or unset it.\n',
    });
  });

  it('a port in use is exit 2 with what to do, as for webhooks listen', async () => {
    const first = await start([], cleanEnv({ OUTREACH_SANDBOX_KEY: 'sk_env_sandbox_0123456789' }));
    const port = new URL(first.baseUrl).port;
    const second = await runBin(['sandbox', 'start', '--port', port], { env: cleanEnv() });
    expect({ code: second.code, stdout: second.stdout, stderr: second.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `error: port ${port} on 127.0.0.1 is in use\nhint: Choose another with --port (--port 0 picks a free one).\n`,
    });
  });
});
