#!/usr/bin/env node
// People search benchmark: `outreach people search --all --csv` of 2,000 people (a sandbox whose display limit is
// 2,000: 80 pages of 25) next to bench/baseline-people.mjs paging the same endpoint in the same run, runs alternated.
// Twice: with no added latency (the cost of our own code shows) and with 20 ms a request (a network nearby).
// Wall time and peak RSS from GNU time. BENCH_RUNS (default 5): the medians are compared.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { benchEnv, bin, startSandbox, timed } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const runs = Number(process.env.BENCH_RUNS ?? 5);
const people = 2_000;
const key = 'sk_bench_people_0123456789';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

console.log(`people search benchmark: --all --csv of ${people} people, median of ${runs}, NODE_EXTRA_CA_CERTS unset`);
for (const latency of [0, 20]) {
  const env = benchEnv({ OUTREACH_CONFIG_DIR: `${outDir}config` });
  const sandbox = await startSandbox(env, key, ['--display-limit', String(people), '--latency', String(latency)]);
  Object.assign(env, { OUTREACH_BASE_URL: sandbox.baseUrl, OUTREACH_API_KEY: key });
  const ours = [];
  const baseline = [];
  try {
    for (let run = 0; run < runs; run++) {
      const a = timed([process.execPath, bin, 'people', 'search', '--all', '--csv'], env, outDir);
      const b = timed([process.execPath, here('./baseline-people.mjs'), sandbox.baseUrl, key], env, outDir);
      if (a.lines !== people + 1 || b.lines !== people + 1) throw new Error(`lines: ${a.lines} and ${b.lines}`);
      ours.push(a);
      baseline.push(b);
    }
  } finally {
    sandbox.stop();
  }
  const ourWall = median(ours.map((r) => r.wall));
  const baseWall = median(baseline.map((r) => r.wall));
  const rss = (runs) => median(runs.map((r) => r.rssMiB)).toFixed(0);
  console.log(
    `latency ${String(latency).padStart(2)} ms: outreach ${ourWall.toFixed(2)} s, ${rss(ours)} MiB; ` +
      `baseline ${baseWall.toFixed(2)} s, ${rss(baseline)} MiB; ratio ${(ourWall / baseWall).toFixed(2)}x`,
  );
}
