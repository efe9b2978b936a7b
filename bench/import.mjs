#!/usr/bin/env node
// Import benchmark: `outreach prospects import --no-wait` of a realistic CSV into a standalone sandbox, next to the
// server-bound limit (ceiling-import.mjs: the same chunk bodies built beforehand and POSTed from memory at the CLI's
// concurrency: what is left when a client costs nothing), the
// honest floor (floor-import.mjs: what the CLI must do and nothing else, at its chunk size and concurrency) and to
// naive Node and Python scripts, at BENCH_ROWS (default 1,000,000) and a tenth of it, against the same sandbox
// (reset before each run); at the smaller size also the CLI sending the file in one chunk. Runs are interleaved; the
// medians of wall time, client CPU (user + system) and peak RSS are compared with the floor's at the same size. GNU
// time (`apt-get install time`) measures. BENCH_ROWS and BENCH_RUNS (default 3) change the size and repetitions.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateProspects } from './generate-prospects.mjs';
import { benchEnv, bin, interleaved, printRatioTable, startSandbox, verdict } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const small = Math.max(1, Math.round(rows / 10));
const runs = Number(process.env.BENCH_RUNS ?? 3);

async function fixture(count) {
  const path = `${outDir}prospects-${count}.csv`;
  if (!existsSync(path)) {
    process.stderr.write(`generating ${path}...\n`);
    await generateProspects(path, count);
  }
  return path;
}

const files = { [rows]: await fixture(rows), [small]: await fixture(small) };
/** The bodies the server-bound limit sends, built once per fixture (not timed). */
async function bodies(count) {
  const dir = `${outDir}bodies-${count}`;
  if (!existsSync(dir)) {
    process.stderr.write(`building the chunk bodies of ${files[count]}...\n`);
    const { execFileSync } = await import('node:child_process');
    execFileSync(process.execPath, [here('./ceiling-import.mjs'), 'prepare', files[count], dir], { stdio: 'inherit' });
  }
  return dir;
}
const bodyDirs = { [rows]: await bodies(rows), [small]: await bodies(small) };
const env = benchEnv({ OUTREACH_CONFIG_DIR: `${outDir}config` });
const key = 'sk_bench_import_0123456789';
const sandbox = await startSandbox(env, key);
const { baseUrl } = sandbox;
Object.assign(env, { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: key });

const countOf = (file) => Number(Object.keys(files).find((count) => files[count] === file));
const commands = {
  ceiling: (file) => [process.execPath, here('./ceiling-import.mjs'), 'send', bodyDirs[countOf(file)], baseUrl, key],
  floor: (file) => [process.execPath, here('./floor-import.mjs'), file, baseUrl, key],
  outreach: (file) => [process.execPath, bin, 'prospects', 'import', file, '--no-wait', '--restart', '-q'],
  // The whole smaller file in one request, as the naive scripts send it: what the ramped chunks gain or cost.
  'outreach one chunk': (file) => [...commands.outreach(file), '--chunk-size', '100000'],
  'naive node': (file) => [process.execPath, here('./naive-import.mjs'), file, baseUrl, key],
  'naive python': (file) => ['python3', here('./naive-import.py'), file, baseUrl, key],
};
// The naive scripts hold the whole file in memory: at the large size they only show what not to do.
const onlySmall = (name) => name.startsWith('naive') || name.endsWith('one chunk');
const plan = [rows, small].flatMap((count) =>
  Object.keys(commands)
    .filter((name) => count === small || !onlySmall(name))
    .map((name) => ({ name: `${name}, ${count.toLocaleString('en-US')}`, argv: commands[name](files[count]) })),
);
let medians;
try {
  medians = await interleaved(plan, { runs, reset: sandbox.reset, env });
} finally {
  sandbox.stop();
}
const med = (name, count) => medians.get(`${name}, ${count.toLocaleString('en-US')}`);

console.log(
  `import, medians of ${runs} interleaved runs, ${rows.toLocaleString('en-US')} rows ` +
    `(${(statSync(files[rows]).size / 1048576).toFixed(0)} MiB) and ${small.toLocaleString('en-US')}, NODE_EXTRA_CA_CERTS unset`,
);
printRatioTable(medians, (name) => `floor, ${name.split(', ').pop()}`);
for (const count of [rows, small]) {
  const ours = med('outreach', count);
  const floor = med('floor', count);
  const wall = ours.wall / floor.wall;
  const cpu = ours.cpu / floor.cpu;
  const bound = ours.wall / med('ceiling', count).wall;
  console.log(
    `target at ${count.toLocaleString('en-US')}: wall <= 1.05x the server-bound limit ${verdict(bound <= 1.05)} ` +
      `(${bound.toFixed(2)}x); wall <= 1.10x floor ${verdict(wall <= 1.1)} (${wall.toFixed(2)}x); ` +
      `cpu <= 1.3x floor ${verdict(cpu <= 1.3)} (${cpu.toFixed(2)}x)`,
  );
}
const oursSmall = med('outreach', small);
const oursBig = med('outreach', rows);
const growth = oursBig.rssMiB / oursSmall.rssMiB;
const versus = (name) => (oursSmall.wall / med(name, small).wall).toFixed(2);
console.log(
  `target: faster than naive node (${versus('naive node')}x) and python (${versus('naive python')}x) at ` +
    `${small.toLocaleString('en-US')} rows; RSS at ${rows.toLocaleString('en-US')} ${oursBig.rssMiB.toFixed(0)} MiB ` +
    `(<= 130 ${verdict(oursBig.rssMiB <= 130)}), ${growth.toFixed(2)}x the smaller run (<= 1.15 ${verdict(growth <= 1.15)})`,
);
