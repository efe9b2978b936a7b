#!/usr/bin/env node
// `--sandbox` at scale: the in-process sandbox after BENCH_ROWS (default 1,000,000) imported prospects, next to a
// fresh one, in the same run. Each command is timed on both (medians of BENCH_RUNS interleaved runs, default 5) and
// must cost at most 1.5x on the big sandbox, those that read and write prospects included (they touch only the
// rows their emails name). Then a BENCH_ROWS import into `sandbox start --state` against the store of BENCH_BASELINE_REF
// (default f884111, the JSON segment store the database replaced; built in a worktree under bench/out), alternating,
// BENCH_IMPORT_RUNS each (default 1): the new store must be no slower. GNU time (`apt-get install time`) measures.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateProspects } from './generate-prospects.mjs';
import { benchEnv, bin, median, startSandbox, timed, verdict } from './lib.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./out/');
const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 5);
const configs = { fresh: `${outDir}sandbox-fresh`, big: `${outDir}sandbox-big` };
for (const dir of Object.values(configs)) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}
const bigCsv = `${outDir}prospects-${rows}.csv`;
try {
  statSync(bigCsv);
} catch {
  await generateProspects(bigCsv, rows);
}
const smallCsv = `${outDir}sandbox-state-10.csv`;
writeFileSync(
  smallCsv,
  'Email,First Name\n' + Array.from({ length: 10 }, (_, i) => `s${i}@state.example,S${i}\n`).join(''),
);

const cli = (which, argv) =>
  timed([process.execPath, bin, '--sandbox', ...argv], benchEnv({ OUTREACH_CONFIG_DIR: configs[which] }), outDir);
const loaded = cli('big', ['prospects', 'import', bigCsv, '--no-wait', '--restart', '-q']);
const stateBytes = readdirSync(`${configs.big}/sandbox`).reduce(
  (sum, name) => sum + statSync(`${configs.big}/sandbox/${name}`).size,
  0,
);
console.log(
  `--sandbox import of ${rows.toLocaleString('en-US')} rows: ${loaded.wall.toFixed(1)} s, ` +
    `${loaded.rssMiB.toFixed(0)} MiB; sandbox state ${(stateBytes / 1048576).toFixed(0)} MiB on disk`,
);

const commands = {
  'inbox categories': ['inbox', 'categories'],
  'tasks list --limit 50': ['tasks', 'list', '--limit', '50'],
  'prospects import (10 rows)': ['prospects', 'import', smallCsv, '--no-wait', '--restart', '-q'],
  'prospects verify (1 email)': ['prospects', 'verify', 's1@state.example'],
};
const results = {};
for (let run = 0; run < runs; run++)
  for (const [name, argv] of Object.entries(commands))
    for (const which of ['fresh', 'big']) (results[`${name}@${which}`] ??= []).push(cli(which, argv));

console.log(`medians of ${runs} interleaved runs, NODE_EXTRA_CA_CERTS unset`);
console.log(['command'.padEnd(30), 'fresh s', 'big s', 'x fresh', 'big MiB'].map((c) => c.padStart(8)).join(' '));
for (const name of Object.keys(commands)) {
  const fresh = median(results[`${name}@fresh`].map((r) => r.wall));
  const big = median(results[`${name}@big`].map((r) => r.wall));
  const rss = median(results[`${name}@big`].map((r) => r.rssMiB));
  console.log(
    [
      name.padEnd(30),
      fresh.toFixed(2).padStart(8),
      big.toFixed(2).padStart(8),
      (big / fresh).toFixed(2).padStart(8),
      rss.toFixed(0).padStart(8),
      `<= 1.5x ${verdict(big / fresh <= 1.5)}`,
    ].join(' '),
  );
}

// The same import into `sandbox start --state FILE` served by the baseline's store and by this one.
const baselineRef = process.env.BENCH_BASELINE_REF ?? 'f884111';
const importRuns = Number(process.env.BENCH_IMPORT_RUNS ?? 1);
const root = here('../');
const baselineDir = `${outDir}baseline-${baselineRef}`;
if (!existsSync(`${baselineDir}/dist`)) {
  rmSync(baselineDir, { recursive: true, force: true });
  execFileSync('git', ['-C', root, 'worktree', 'add', '--force', '--detach', baselineDir, baselineRef], {
    stdio: 'ignore',
  });
  symlinkSync(`${root}node_modules`, `${baselineDir}/node_modules`); // its dependencies are a subset of ours
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: baselineDir, stdio: 'ignore' });
}
const servers = { baseline: `${baselineDir}/bin/outreach.js`, database: bin };
const served = {};
for (let run = 0; run < importRuns; run++)
  for (const [name, serverBin] of Object.entries(servers)) {
    const state = `${outDir}served-${name}.state`;
    for (const file of readdirSync(outDir)) if (file.startsWith(`served-${name}.state`)) rmSync(`${outDir}${file}`);
    const key = 'sk_bench_served_state_1';
    const server = await startSandbox(benchEnv(), key, ['--state', state], serverBin);
    const env = benchEnv({
      OUTREACH_BASE_URL: server.baseUrl,
      OUTREACH_API_KEY: key,
      OUTREACH_CONFIG_DIR: `${outDir}served-cfg`,
    });
    rmSync(`${outDir}served-cfg`, { recursive: true, force: true });
    (served[name] ??= []).push(
      timed([process.execPath, bin, 'prospects', 'import', bigCsv, '--no-wait', '-q'], env, outDir),
    );
    await server.stopped();
  }
const [baseWall, dbWall] = ['baseline', 'database'].map((name) => median(served[name].map((r) => r.wall)));
console.log(
  `import of ${rows.toLocaleString('en-US')} rows into sandbox start --state: ${baselineRef} store ${baseWall.toFixed(1)} s, ` +
    `database ${dbWall.toFixed(1)} s: ${(dbWall / baseWall).toFixed(2)}x ${verdict(dbWall / baseWall <= 1.05)} (no slower, within noise)`,
);
