#!/usr/bin/env node
// DNC upload benchmark: `outreach dnc add` of 1,000,000 mixed emails and domains (URLs, @domain forms, some
// duplicates and garbage) into a standalone sandbox, next to the floor in the same run: csv-parse streaming the
// same file and posting the raw values in chunks of the same size (5,000) to the same endpoint, no checks.
// Also our peak RSS for a 100,000-line file. BENCH_ROWS (default 1000000), BENCH_RUNS (default 2).
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { benchEnv, bin, startSandbox, timed } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const small = Math.round(rows / 10);
const runs = Number(process.env.BENCH_RUNS ?? 2);

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
const reset = sandbox.reset;

const variants = [
  ['floor (csv-parse -> 5,000-value posts)', [process.execPath, here('./floor-dnc.mjs'), bigFile, baseUrl, key], rows],
  ['outreach dnc add', [process.execPath, bin, 'dnc', 'add', 'dncGlobal1', '--file', bigFile, '--restart', '-q'], rows],
  [
    `outreach dnc add, ${small.toLocaleString('en-US')} rows`,
    [process.execPath, bin, 'dnc', 'add', 'dncGlobal1', '--file', smallFile, '--restart', '-q'],
    small,
  ],
];
const results = new Map();
try {
  for (let run = 0; run < runs; run++) {
    for (const [name, argv, count] of variants) {
      await reset();
      const r = timed(argv, env, outDir);
      process.stderr.write(`  run ${run + 1}: ${name}: ${r.wall.toFixed(1)} s, ${r.rssMiB.toFixed(0)} MiB\n`);
      results.set(name, [...(results.get(name) ?? []), { ...r, rate: count / r.wall }]);
    }
  }
} finally {
  sandbox.stop();
}
const best = (name) => {
  const list = results.get(name);
  return {
    rate: Math.max(...list.map((r) => r.rate)),
    rssMiB: Math.max(...list.map((r) => r.rssMiB)),
    wall: Math.min(...list.map((r) => r.wall)),
  };
};
const floor = best(variants[0][0]);
console.log(`dnc add of ${rows.toLocaleString('en-US')} values, best of ${runs}, NODE_EXTRA_CA_CERTS unset`);
for (const [name] of variants) {
  const r = best(name);
  console.log(
    [
      name.padEnd(40),
      `${r.wall.toFixed(1).padStart(7)} s`,
      `${Math.round(r.rate).toString().padStart(9)} rows/s`,
      `${(r.rate / floor.rate).toFixed(2).padStart(6)}x floor`,
      `${r.rssMiB.toFixed(0).padStart(6)} MiB`,
    ].join(' '),
  );
}
const ours = best(variants[1][0]);
const oursSmall = best(variants[2][0]);
console.log(
  `targets: >= 0.8x floor: ${(ours.rate / floor.rate).toFixed(2)}x; ` +
    `peak RSS under 200 MiB: ${ours.rssMiB.toFixed(0)} MiB; ` +
    `flat: ${(ours.rssMiB / oursSmall.rssMiB).toFixed(2)}x the ${small.toLocaleString('en-US')}-row run`,
);
