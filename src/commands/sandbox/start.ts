import { listening } from '../../cli/listen-problem.js';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { flag, ValueProblem } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { streamResult } from '../../cli/result.js';
import { isLoopbackHost } from '../../config/target.js';
import { faultKinds } from '../../sandbox/faults.js';
import { UsageError } from '../../errors.js';
import { readText } from '../../io/read-text.js';
import type { CommandContext } from '../../cli/command-context.js';

/** A sandbox key: at least 8 characters, no whitespace. */
function checkKey(key: string): string {
  if (key.length < 8) throw new ValueProblem('must be at least 8 characters');
  if (/\s/.test(key)) throw new ValueProblem('must not contain whitespace');
  return key;
}

/** The key the sandbox accepts: --key (`--key -`: read from stdin), else OUTREACH_SANDBOX_KEY, else a random one. Not
 * OUTREACH_API_KEY: that may be a real key, and the sandbox prints its key on stdout. */
async function sandboxKey(ctx: CommandContext, opts: { key?: string }): Promise<string> {
  if (opts.key === '-') {
    const key = (await readText(ctx.stdin)).trim();
    if (!key) throw new UsageError('--key -: stdin was empty', 'Example: outreach sandbox start --key - < key.txt');
    try {
      return checkKey(key);
    } catch (problem) {
      throw new UsageError(`--key -: the key on stdin ${(problem as Error).message}`);
    }
  }
  if (opts.key !== undefined) {
    ctx.warn(
      '--key is visible to other local users (ps, /proc): pass it in OUTREACH_SANDBOX_KEY, or on stdin with --key -',
    );
    return opts.key;
  }
  const key = ctx.env.OUTREACH_SANDBOX_KEY?.trim();
  if (key)
    try {
      return checkKey(key);
    } catch (problem) {
      throw new UsageError(`OUTREACH_SANDBOX_KEY ${(problem as Error).message}`, `Set it to another key, or unset it.`);
    }
  return `sk_sandbox_${randomBytes(12).toString('hex')}`;
}

export default defineVerb({
  agent: {
    kind: 'leftOut',
    why: 'a server that runs until stopped; `outreach mcp --sandbox` gives agents the sandbox',
  },
  description:
    'Prints the base URL and the API key on stdout (--json: one line, {"baseUrl", "apiKey"}), then serves until Ctrl-C\n' +
    'or SIGTERM (exit 0).\n' +
    'Point any command at it with OUTREACH_BASE_URL and OUTREACH_API_KEY, or use --sandbox for an in-process one.\n' +
    'With --state the data is loaded from and saved to FILE; without it, it starts from the seed data every time.\n' +
    'The key it accepts: --key, read from stdin with --key -, else OUTREACH_SANDBOX_KEY, else a random one (never\n' +
    'OUTREACH_API_KEY, which may be a real key: the key is printed). A key given as --key KEY is visible to every\n' +
    'local user in the process list: prefer the environment or stdin. Report files the sandbox serves need the key.',
  examples: [
    'printenv SANDBOX_KEY | outreach sandbox start --port 0 --key -',
    'sandbox start --state ./sandbox.db --fault-rate 0.2 --fault-seed 7',
    'sandbox start --latency 50 --tasks 100000',
  ],
  flags: {
    port: flag.int('port to listen on; 0 picks a free one', { min: 0, max: 65535, default: 7357 }),
    host: flag.text('address to listen on', { value: 'address', default: '127.0.0.1' }),
    key: flag.custom(
      'API key the sandbox accepts; "-" reads it from stdin (default: OUTREACH_SANDBOX_KEY or a random one)',
      (key) => (key === '-' ? key : checkKey(key)),
    ),
    state: flag.text('load state from FILE; every write is on disk before it is answered', { value: 'file' }),
    faultRate: flag.number('share of requests (0-1) answered with an injected failure', {
      value: 'r',
      min: 0,
      max: 1,
      default: 0,
    }),
    faultSeed: flag.int('seed that makes the injected failures reproducible', { min: 0, max: 2 ** 32 - 1, default: 1 }),
    faultKinds: flag.custom(
      `restrict faults to some of: ${faultKinds.join(', ')}`,
      (list) =>
        list.split(',').map((kind) => {
          const known = faultKinds.find((k) => k === kind.trim());
          if (!known) throw new ValueProblem(`takes ${faultKinds.join(', ')}, not "${kind.trim()}"`);
          return known;
        }),
      { value: 'list' },
    ),
    latency: flag.int('delay added to every answer', { value: 'ms', min: 0, max: 60_000, default: 0 }),
    provisionSeconds: flag.int('how long a purchased domain stays inProgress before it is active', {
      value: 'seconds',
      min: 0,
      max: 86_400,
      default: 5,
    }),
    enrichmentSeconds: flag.number('how long an enrichment job takes to process everyone', {
      value: 'seconds',
      min: 0,
      max: 86_400,
      default: 3,
    }),
    displayLimit: flag.int("how many people of a search the account may page through (the search's display_limit)", {
      min: 1,
      max: 10_000,
    }),
    tasks: flag.int('seed this many tasks instead of 300 (same mix of statuses), for load tests', {
      min: 1,
      max: 5_000_000,
    }),
  },
  async run(ctx, opts) {
    const [{ Sandbox }, { openSandboxDb }] = await Promise.all([
      import('../../sandbox/server.js'),
      import('../../sandbox/open-state.js'),
    ]);
    const key = await sandboxKey(ctx, opts);
    if (!isLoopbackHost(opts.host))
      ctx.warn(`listening on ${opts.host}: anyone who can reach it can use the sandbox key`);
    // With --state, the state is a database: a write is answered only once it has committed (a crash loses nothing
    // the client saw accepted, ids are never handed out twice across a restart), and `--sandbox` commands or another
    // `sandbox start` on the same file share it safely. Without it, a database in memory.
    const db = openSandboxDb(opts.state);
    ctx.onDispose(() => db.close());
    const sandbox = new Sandbox({
      key,
      db,
      clock: ctx.clock,
      faults: opts.faultRate > 0 ? { rate: opts.faultRate, seed: opts.faultSeed, kinds: opts.faultKinds } : undefined,
      latencyMs: opts.latency,
      provisionMs: opts.provisionSeconds * 1000,
      enrichmentMs: opts.enrichmentSeconds * 1000,
      displayLimit: opts.displayLimit,
      seed: { tasks: opts.tasks },
    });
    const baseUrl = await listening(() => sandbox.listen(opts.port, opts.host));
    // Its one item is where it serves; it serves until Ctrl-C or SIGTERM.
    async function* serving() {
      try {
        yield { value: { baseUrl, apiKey: key }, text: `base URL: ${baseUrl}\nAPI key: ${key}\n` };
        ctx.info(
          `Sandbox serving. Try: OUTREACH_BASE_URL=${baseUrl} OUTREACH_API_KEY=<key above> outreach inbox categories\n` +
            'Stop with Ctrl-C.',
        );
        if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
      } finally {
        await sandbox.close({ now: true });
      }
    }
    return streamResult(serving(), () => ({ said: 'Sandbox stopped.' }));
  },
});
