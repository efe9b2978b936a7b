#!/usr/bin/env node
// DNC upload benchmark: `outreach dnc add` of 1,000,000 mixed emails and domains (URLs, @domain forms, some
// duplicates and garbage) into a standalone sandbox, next to the floor in the same run (floor-dnc.mjs: csv-parse
// streaming the same file, raw values posted at the CLI's chunk size and concurrency, no checks). Medians of
// interleaved runs: wall, client CPU, peak RSS, and the ratios. Also our figures for a tenth of the values.
// BENCH_ROWS (default 1000000), BENCH_RUNS (default 3).
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { benchEnv, bin, interleaved, printRatioTable, startSandbox, verdict } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const small = Math.round(rows / 10);
const runs = Number(process.env.BENCH_RUNS ?? 3);

async function generate(count) {
  const path = `${outDir}dnc-${count}.txt`;
  if (existsSync(path)) return path;
  const out = createWriteStream(path);
  let buffer = 'value\n';
  for (let i = 0; i < count; i++) {
    const kind = i % 20;
    const value =
      kind < 13
        ? `Person.${i}@Company${i % 50_000}.example`
        : kind < 17
          ? `company${i}.example`
          : kind === 17
            ? `https://www.site${i}.example/contact`
            : kind === 18
              ? `@mail${i}.example`
              : i % 40 === 19
                ? 'not a value'
                : `person.${i - 1}@company${(i - 1) % 50_000}.example`;
    buffer += `${value}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'close');
  return path;
}

const bigFile = await generate(rows);
const smallFile = await generate(small);
const env = benchEnv({ OUTREACH_CONFIG_DIR: `${outDir}config` });
const key = 'sk_bench_dnc_0123456789';
const sandbox = await startSandbox(env, key);
const { baseUrl } = sandbox;
Object.assign(env, { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: key });

const plan = [
  { name: 'floor', argv: [process.execPath, here('./floor-dnc.mjs'), bigFile, baseUrl, key] },
  {
    name: 'outreach dnc add',
    argv: [process.execPath, bin, 'dnc', 'add', 'dncGlobal1', '--file', bigFile, '--restart', '-q'],
  },
  {
    name: `outreach dnc add, ${small.toLocaleString('en-US')} values`,
    argv: [process.execPath, bin, 'dnc', 'add', 'dncGlobal1', '--file', smallFile, '--restart', '-q'],
  },
];
let medians;
try {
  medians = await interleaved(plan, { runs, reset: sandbox.reset, env, cwd: outDir });
} finally {
  sandbox.stop();
}
console.log(
  `dnc add of ${rows.toLocaleString('en-US')} values, medians of ${runs} interleaved runs, NODE_EXTRA_CA_CERTS unset`,
);
printRatioTable(medians, () => 'floor');
const floor = medians.get('floor');
const ours = medians.get('outreach dnc add');
const oursSmall = medians.get(plan[2].name);
const wall = ours.wall / floor.wall;
const cpu = ours.cpu / floor.cpu;
console.log(
  `targets: wall <= 1.15x floor ${verdict(wall <= 1.15)} (${wall.toFixed(2)}x); ` +
    `cpu <= 1.5x ${verdict(cpu <= 1.5)} (${cpu.toFixed(2)}x); ` +
    `peak RSS ${ours.rssMiB.toFixed(0)} MiB, ` +
    `${(ours.rssMiB / oursSmall.rssMiB).toFixed(2)}x the ${small.toLocaleString('en-US')}-value run`,
);
