// Every non-zero exit says why and what next: each verb is run into failures (no service at the address, ids the
// sandbox does not know, a port already taken) and wherever it exits non-zero its stderr has an `error:` line and a
// `hint:` line, also under --json and --quiet. The verbs that end 0 without a service are named, so a verb that
// stops failing (or starts) shows up here.
import { createServer, type Server } from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusingUrl } from '../helpers/closed-port.js';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { everyVerb, flagsOf, required } from '../helpers/verbs.js';

const verbs = await everyVerb();

/** Verbs that serve until stopped: run into a port already taken instead. */
const serving = new Set(['sandbox start', 'webhooks listen']);

/** Verbs that need no service, so end 0 even with none at the address. */
const needNoService = ['completion', 'mcp', 'mcp audit', 'profiles list', 'sandbox export', 'sandbox reset', 'version'];

function saysWhyAndWhatNext(stderr: string): boolean {
  return /^error: \S.*$/m.test(stderr) && /^hint: \S.*$/m.test(stderr);
}

/** A command line that reaches run(): the required arguments and flags, and --yes where a verb asks first. */
function lineOf(path: string[], verb: Parameters<typeof required>[0]): string[] {
  const yes = flagsOf(verb).some(([key]) => key === 'yes') ? ['--yes'] : [];
  return [...path, ...required(verb), ...yes];
}

describe('every failure says error: and hint:', () => {
  let sb: TestSandbox;
  let taken: Server;
  let takenPort: number;
  beforeAll(async () => {
    sb = await startTestSandbox();
    taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    takenPort = (taken.address() as { port: number }).port;
  });
  afterAll(async () => {
    taken.close();
    await sb.close();
  });

  it('with no service at the address, for every verb, also under --json and --quiet', async () => {
    const env = { OUTREACH_BASE_URL: await refusingUrl(), OUTREACH_API_KEY: 'sk_test_every_failure', CI: 'true' };
    const endedZero: string[] = [];
    const silent: string[] = [];
    for (const { path, verb } of verbs) {
      const name = path.join(' ');
      if (serving.has(name)) continue;
      for (const extra of [[], ['--json'], ['--quiet']]) {
        const result = await run([...lineOf(path, verb), ...extra], { env, configDir: tempDir(), cwd: tempDir() });
        if (result.code === 0) {
          if (extra.length === 0) endedZero.push(name);
        } else if (!saysWhyAndWhatNext(result.stderr)) silent.push(`${name} ${extra.join(' ')} (exit ${result.code})`);
      }
    }
    expect(silent).toEqual([]);
    expect(endedZero.sort()).toEqual(needNoService);
  });

  it('with ids the sandbox does not know, for every verb that takes one', async () => {
    const silent: string[] = [];
    let failed = 0;
    for (const { path, verb } of verbs) {
      const name = path.join(' ');
      if (serving.has(name) || !(verb.args ?? []).some((spec: { name: string }) => /Id$/.test(spec.name))) continue;
      const line = lineOf(path, verb).map((word) =>
        /^(sq|dm|tk|wh|rq|ba|ct|pr|fd|st|sub)\w*\d/.test(word) ? 'nope0' : word,
      );
      const result = await run(line, { env: { ...sb.env, CI: 'true' }, configDir: tempDir(), cwd: tempDir() });
      if (result.code === 0) continue;
      failed++;
      if (!saysWhyAndWhatNext(result.stderr)) silent.push(`${name} (exit ${result.code}): ${result.stderr}`);
    }
    expect(silent).toEqual([]);
    expect(failed).toBeGreaterThan(10);
  });

  it('a port already taken, for the verbs that serve', async () => {
    for (const line of [
      ['sandbox', 'start', '--port', String(takenPort)],
      ['webhooks', 'listen', '--port', String(takenPort)],
    ]) {
      const result = await run(line, { env: { ...sb.env, CI: 'true' }, configDir: tempDir(), cwd: tempDir() });
      expect({ line, code: result.code, says: saysWhyAndWhatNext(result.stderr) }).toEqual({
        line,
        code: 2,
        says: true,
      });
    }
  });
});
