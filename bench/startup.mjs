#!/usr/bin/env node
// Start-up benchmark: median wall time of `outreach --version`, `--help`, `tasks --help` and one GET
// (`inbox categories --json` against a running sandbox), next to `node -e 0`, in one run, interleaved so that a
// machine getting busier slows every command alike. NODE_EXTRA_CA_CERTS is removed from the environment: it adds ~50 ms to every
// node start on this machine (../shared/NOTES-measured.md) and would hide the differences.
// Uses hyperfine when installed (Debian package `hyperfine`), else spawns each command itself.
import { spawnSync } from 'node:child_process';
import { benchEnv, bin, startSandbox } from './lib.mjs';

const runs = Number(process.env.BENCH_RUNS ?? 30);
const key = 'sk_bench_0123456789';
const env = benchEnv({ OUTREACH_CONFIG_DIR: '/tmp/outreach-bench-config' });
const sandbox = await startSandbox(env, key);
Object.assign(env, { OUTREACH_BASE_URL: sandbox.baseUrl, OUTREACH_API_KEY: key });

const commands = [
  ['node -e 0', [process.execPath, '-e', '0']],
  ['outreach --version', [process.execPath, bin, '--version']],
  ['outreach --help', [process.execPath, bin, '--help']],
  ['outreach tasks --help', [process.execPath, bin, 'tasks', '--help']],
  ['outreach inbox categories --json', [process.execPath, bin, 'inbox', 'categories', '--json']],
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs the commands in turn (A B C A B C ...) and returns each one's median. */
function measureBySpawning() {
  const times = commands.map(() => []);
  for (let i = 0; i < runs + 3; i++) {
    commands.forEach(([, argv], c) => {
      const started = process.hrtime.bigint();
      const result = spawnSync(argv[0], argv.slice(1), { env, stdio: 'ignore' });
      if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}`);
      if (i >= 3) times[c].push(Number(process.hrtime.bigint() - started) / 1e6);
    });
  }
  return times.map(median);
}

function measureWithHyperfine() {
  const quote = (s) => `'${s.replace(/'/g, "'\\''")}'`;
  const out = '/tmp/outreach-bench-startup.json';
  const args = [
    '--warmup',
    '3',
    '--runs',
    String(runs),
    '--export-json',
    out,
    '-N',
    ...commands.map(([, argv]) => argv.map(quote).join(' ')),
  ];
  const result = spawnSync('hyperfine', args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) return undefined;
  return JSON.parse(spawnSync('cat', [out], { encoding: 'utf8' }).stdout).results.map((r) => r.median * 1000);
}

try {
  const hasHyperfine = spawnSync('hyperfine', ['--version'], { stdio: 'ignore' }).status === 0;
  const medians = (hasHyperfine && measureWithHyperfine()) || measureBySpawning();
  const baseline = medians[0];
  console.log(
    `start-up, median of ${runs} runs (${hasHyperfine ? 'hyperfine' : 'spawnSync, interleaved'}), NODE_EXTRA_CA_CERTS unset`,
  );
  console.log('command'.padEnd(36), 'median ms'.padStart(10), 'x node -e 0'.padStart(12));
  commands.forEach(([name], i) =>
    console.log(name.padEnd(36), medians[i].toFixed(1).padStart(10), (medians[i] / baseline).toFixed(2).padStart(12)),
  );
  // The targets of the architecture issue, as ratios to node -e 0 measured in the same run.
  const targets = [1.5, 2, 2, 4];
  targets.forEach((target, i) => {
    const ratio = medians[i + 1] / baseline;
    const verdict = ratio <= target ? 'met' : 'NOT met';
    console.log(`target: ${commands[i + 1][0]} <= ${target}x -> ${verdict} (${ratio.toFixed(2)}x)`);
  });
} finally {
  sandbox.stop();
}
