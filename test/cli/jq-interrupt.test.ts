// A runaway --jq expression (issue 27 item 10): `--jq 'last(range(1e15))'` once ignored Ctrl-C and SIGTERM, as the
// check before sending ran it, and so did the filter after. The check only compiles it (the request is sent), and
// the filter runs in a worker thread that Ctrl-C or SIGTERM terminates: exit 130.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { binPath, cleanEnv, startSandboxProcess, type SandboxProcess } from '../helpers/spawn.js';

let sandbox: SandboxProcess;
const children: ChildProcess[] = [];
beforeAll(async () => {
  sandbox = await startSandboxProcess([], cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() }));
});
afterAll(() => sandbox.stop());
// A run that did not stop on its signal is not left behind.
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function runawayStoppedBy(signal: NodeJS.Signals) {
  const env = cleanEnv({
    OUTREACH_CONFIG_DIR: tempDir(),
    OUTREACH_BASE_URL: sandbox.baseUrl,
    OUTREACH_API_KEY: sandbox.key,
  });
  const argv = ['--debug', 'inbox', 'categories', '--jq', 'last(range(1e15))'];
  const child = spawn(process.execPath, [binPath, ...argv], { env, cwd: tempDir(), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  const filtering = new Promise<void>((resolve) =>
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.includes('[debug] --jq: filtering')) resolve();
    }),
  );
  const closed = once(child, 'close');
  // A run that ends on its own (it should not) is reported as it ended, not as a wait that never ends.
  await Promise.race([filtering, closed]);
  child.kill(signal);
  const [code] = (await closed) as [number | null];
  return { code, stdout, stderr };
}

describe('--jq with an expression that never ends', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`is only compiled before sending, and ${signal} ends the filter with exit 130`, async () => {
      const { code, stdout, stderr } = await runawayStoppedBy(signal);
      expect(code).toBe(130);
      expect(stdout).toBe('');
      const lines = stderr.split('\n');
      // The request went out: checking the expression did not run it.
      expect(lines.some((line) => /^\[debug\] GET .*\/v1\/unibox\/categories -> 200 in/.test(line))).toBe(true);
      expect(lines.slice(-2)).toEqual(['interrupted', '']);
    });
});
