import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { writeOut } from '../../cli/render/output.js';
import { isLoopbackHost } from '../../config/target.js';
import { faultKinds, type FaultKind } from '../../sandbox/faults.js';

const number = (flag: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${flag} must be a number` })
    .min(min, `${flag} must be at least ${min}`)
    .max(max, `${flag} must be at most ${max}`);

const schema = z.object({
  args: z.tuple([]),
  port: number('--port', 0, 65535).int(),
  host: z.string(),
  key: z.string().min(8, '--key must be at least 8 characters').optional(),
  state: z.string().optional(),
  faultRate: number('--fault-rate', 0, 1).default(0),
  faultSeed: number('--fault-seed', 0, 2 ** 32 - 1)
    .int()
    .default(1),
  faultKinds: z
    .string()
    .transform((value) => value.split(',').map((kind) => kind.trim()))
    .pipe(
      z.array(
        z.enum(faultKinds as [FaultKind, ...FaultKind[]], { error: `--fault-kinds takes ${faultKinds.join(', ')}` }),
      ),
    )
    .optional(),
  latency: number('--latency', 0, 60_000).default(0),
  tasks: number('--tasks', 1, 5_000_000).int().optional(),
});

export default defineVerb({
  usage: 'start',
  summary: 'Serve the whole API locally until interrupted',
  description:
    'Prints the base URL and the API key on stdout, then serves until Ctrl-C or SIGTERM (exit 0).\n' +
    'Point any command at it with OUTREACH_BASE_URL and OUTREACH_API_KEY, or use --sandbox for an in-process one.\n' +
    'With --state the data is loaded from and saved to FILE; without it, it starts from the seed data every time.',
  examples: [
    'sandbox start',
    'sandbox start --port 0 --key sk_test_12345678',
    'sandbox start --state ./sandbox.json --fault-rate 0.2 --fault-seed 7',
    'sandbox start --latency 50 --tasks 100000',
  ],
  configure(cmd) {
    cmd
      .option('--port <n>', 'port to listen on; 0 picks a free one', '7357')
      .option('--host <address>', 'address to listen on', '127.0.0.1')
      .option('--key <key>', 'API key the sandbox accepts (default: a random one)')
      .option('--state <file>', 'load state from FILE and save it back')
      .option('--fault-rate <r>', 'share of requests (0-1) answered with an injected failure')
      .option('--fault-seed <n>', 'seed that makes the injected failures reproducible')
      .option('--fault-kinds <list>', `restrict faults to some of: ${faultKinds.join(', ')}`)
      .option('--latency <ms>', 'delay added to every answer')
      .option('--tasks <n>', 'seed this many tasks instead of 300 (same mix of statuses), for load tests');
  },
  schema,
  async run(ctx, opts) {
    const [{ Sandbox }, { loadState, saveState }] = await Promise.all([
      import('../../sandbox/server.js'),
      import('../../sandbox/in-process.js'),
    ]);
    if (!isLoopbackHost(opts.host))
      ctx.warn(`listening on ${opts.host}: anyone who can reach it can use the sandbox key`);
    const key = opts.key ?? `sk_sandbox_${randomBytes(12).toString('hex')}`;
    const sandbox = new Sandbox({
      key,
      clock: ctx.clock,
      state: opts.state ? loadState(opts.state) : undefined,
      faults: opts.faultRate > 0 ? { rate: opts.faultRate, seed: opts.faultSeed, kinds: opts.faultKinds } : undefined,
      latencyMs: opts.latency,
      seed: { tasks: opts.tasks },
    });
    const baseUrl = await sandbox.listen(opts.port, opts.host);
    let saveTimer: NodeJS.Timeout | undefined;
    const save = () => opts.state && saveState(opts.state, sandbox.store.snapshot());
    if (opts.state) {
      sandbox.store.onChange(() => {
        saveTimer ??= setTimeout(() => {
          saveTimer = undefined;
          save();
        }, 1000);
      });
    }
    await writeOut(ctx.stdout, `base URL: ${baseUrl}\nAPI key: ${key}\n`);
    ctx.info(
      `Sandbox serving. Try: OUTREACH_BASE_URL=${baseUrl} OUTREACH_API_KEY=<key above> outreach inbox categories\nStop with Ctrl-C.`,
    );
    if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
    clearTimeout(saveTimer);
    await sandbox.close();
    save();
    ctx.info('Sandbox stopped.');
  },
});
