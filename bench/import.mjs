#!/usr/bin/env node
// Import benchmark: `outreach prospects import` of a 1,000,000-row realistic CSV into a standalone sandbox, next to
// (a) the floor (floor-import.mjs) and (b) a naive script (naive-import.mjs), in one run, against the same sandbox
// (reset before each run). Wall time and peak RSS come from GNU time (`apt-get install time`).
// BENCH_ROWS (default 1000000) and BENCH_RUNS (default 2) change the size and repetitions.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateProspects } from './generate-prospects.mjs';
import { benchEnv, bin, startSandbox, timed } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
mkdirSync(outDir, { recursive: true });
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const small = Math.max(1, Math.round(rows / 10));
const runs = Number(process.env.BENCH_RUNS ?? 2);

async function fixture(count) {
  const path = `${outDir}prospects-${count}.csv`;
  if (!existsSync(path)) {
    process.stderr.write(`generating ${path}...\n`);
    await generateProspects(path, count);
  }
  return path;
}

const bigFile = await fixture(rows);
const smallFile = await fixture(small);
const env = benchEnv({ OUTREACH_CONFIG_DIR: `${outDir}config` });
const key = 'sk_bench_import_0123456789';
const sandbox = await startSandbox(env, key);
const { baseUrl } = sandbox;
Object.assign(env, { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: key });
const reset = sandbox.reset;

const variants = [
  [
    'floor (csv-parse -> request bodies)',
    (file) => [process.execPath, here('./floor-import.mjs'), file, baseUrl, key],
    bigFile,
    rows,
  ],
  [
    'naive (readFileSync + parse/sync)',
    (file) => [process.execPath, here('./naive-import.mjs'), file, baseUrl, key],
    bigFile,
    rows,
  ],
  [
    'outreach prospects import --no-wait',
    (file) => [process.execPath, bin, 'prospects', 'import', file, '--no-wait', '--restart', '-q'],
    bigFile,
    rows,
  ],
  [
    `outreach, ${small.toLocaleString('en-US')} rows`,
    (file) => [process.execPath, bin, 'prospects', 'import', file, '--no-wait', '--restart', '-q'],
    smallFile,
    small,
  ],
  [
    'outreach prospects import --wait',
    (file) => [process.execPath, bin, 'prospects', 'import', file, '--wait', '--restart', '-q'],
    bigFile,
    rows,
  ],
];

const results = new Map();
try {
  for (let run = 0; run < runs; run++) {
    for (const [name, argv, file, count] of variants) {
      if (name.includes('--wait') && run > 0) continue;
      await reset();
      const { wall, rssMiB } = timed(argv(file), env);
      process.stderr.write(`  run ${run + 1}: ${name}: ${wall.toFixed(1)} s, ${rssMiB.toFixed(0)} MiB\n`);
      const list = results.get(name) ?? [];
      list.push({ wall, rssMiB, rowsPerSecond: count / wall });
      results.set(name, list);
    }
  }
} finally {
  sandbox.stop();
}

const best = (name) => {
  const list = results.get(name);
  return {
    rowsPerSecond: Math.max(...list.map((r) => r.rowsPerSecond)),
    rssMiB: Math.max(...list.map((r) => r.rssMiB)),
    wall: Math.min(...list.map((r) => r.wall)),
  };
};
const floor = best(variants[0][0]);
console.log(
  `import of ${rows.toLocaleString('en-US')} rows (${(statSync(bigFile).size / 1048576).toFixed(0)} MiB), ` +
    `best of ${runs}, NODE_EXTRA_CA_CERTS unset`,
);
console.log(
  `${'variant'.padEnd(40)} ${'wall s'.padStart(7)} ${'rows/s'.padStart(9)} ${'x floor'.padStart(8)} ${'peak RSS MiB'.padStart(13)}`,
);
for (const [name] of variants) {
  const r = best(name);
  console.log(
    [
      name.padEnd(40),
      r.wall.toFixed(1).padStart(7),
      Math.round(r.rowsPerSecond).toString().padStart(9),
      (r.rowsPerSecond / floor.rowsPerSecond).toFixed(2).padStart(8),
      r.rssMiB.toFixed(0).padStart(13),
    ].join(' '),
  );
}
const ours = best(variants[2][0]);
const oursSmall = best(variants[3][0]);
console.log(
  `targets: rows/s >= 0.85x floor: ${(ours.rowsPerSecond / floor.rowsPerSecond).toFixed(2)}x; ` +
    `peak RSS <= 150 MiB: ${ours.rssMiB.toFixed(0)} MiB; ` +
    `RSS within 1.3x of the ${small.toLocaleString('en-US')}-row run: ${(ours.rssMiB / oursSmall.rssMiB).toFixed(2)}x`,
);
