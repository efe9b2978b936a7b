#!/usr/bin/env node
// Import benchmark: `outreach prospects import --no-wait` of a realistic CSV into a standalone sandbox, next to the
// server-bound limit (ceiling-import.mjs: the same chunk bodies built beforehand and POSTed from memory at the CLI's
// concurrency: what is left when a client costs nothing), the
// honest floor (floor-import.mjs: what the CLI must do and nothing else, at its chunk size and concurrency) and to
// naive Node and Python scripts, at BENCH_ROWS (default 1,000,000) and a tenth of it, against the same sandbox
// (reset before each run); at the smaller size also the CLI sending the file in one chunk. Then the do-not-contact
// check: the same import with the sandbox holding BENCH_DNC values (default as many as the rows; one in a thousand
// an email of the file, stopped) against the import with --no-dnc-check over the same state, the lists read cold
// (page by page) and warm (from the copy the cold run kept), and the cold read alone (a two-row import) against a plain
// script reading the same pages (floor-dnc-read.mjs), on this machine and through a proxy 20 ms away (delay-proxy.mjs;
// the floor then with 32 pages under way, what pays there). Runs are interleaved; the
// medians of wall time, client CPU (user + system) and peak RSS are compared with the floor's at the same size. GNU
// time (`apt-get install time`) measures. BENCH_ROWS and BENCH_RUNS (default 3) change the size and repetitions.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateProspects } from './generate-prospects.mjs';
import { benchEnv, bin, interleaved, median, printRatioTable, startSandbox, verdict } from './lib.mjs';
import { startDelayProxy } from './delay-proxy.mjs';

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
let dncMedians;
let far;
const readFloor = 'read the lists: plain script (floor)';
const readOurs = 'read the lists: outreach, cold';
// The same read from a service 20 ms away (a proxy holds each answer 20 ms): the floor with 32 pages under way, the
// count that pays on such a link, against the CLI, which starts at 8 and finds it.
const tripMs = 20;
const farFloor = `read ${tripMs} ms away: plain script, 32 under way (floor)`;
const farOurs = `read ${tripMs} ms away: outreach, cold`;
const dncValues = Number(process.env.BENCH_DNC ?? rows);
try {
  // BENCH_ONLY=dnc runs the do-not-contact comparison alone.
  medians = process.env.BENCH_ONLY === 'dnc' ? new Map() : await interleaved(plan, { runs, reset: sandbox.reset, env });
  if (dncValues > 0) {
    await sandbox.reset();
    process.stderr.write(`adding ${dncValues.toLocaleString('en-US')} DNC values to the sandbox (not timed)...\n`);
    await addDncValues(baseUrl, key, dncValues);
    const values = dncValues.toLocaleString('en-US');
    far = await startDelayProxy(baseUrl, tripMs);
    const cacheDir = `${outDir}config/dnc-cache`;
    // Cold: the lists read page by page (their cached copy removed first); warm: the copy the cold run left.
    const dncPlan = [
      { name: 'import --no-dnc-check', argv: [...commands.outreach(files[rows]), '--no-dnc-check'] },
      {
        name: `checked against ${values} DNC values, cold`,
        argv: ['sh', '-c', `rm -rf "${cacheDir}" && exec "$0" "$@"`, ...commands.outreach(files[rows])],
      },
      { name: `checked against ${values} DNC values, warm`, argv: commands.outreach(files[rows]) },
      // The read alone: a two-row import reading the lists cold, against a plain script reading the same pages.
      { name: readFloor, argv: [process.execPath, here('./floor-dnc-read.mjs'), baseUrl, key] },
      {
        name: readOurs,
        argv: ['sh', '-c', `rm -rf "${cacheDir}" && exec "$0" "$@"`, ...commands.outreach(await fixture(2))],
      },
      { name: farFloor, argv: [process.execPath, here('./floor-dnc-read.mjs'), far.baseUrl, key, '32'] },
      {
        name: farOurs,
        argv: ['env', `OUTREACH_BASE_URL=${far.baseUrl}`, 'sh', '-c', `rm -rf "${cacheDir}" && exec "$0" "$@"`].concat(
          commands.outreach(await fixture(2)),
        ),
      },
    ];
    dncMedians = await interleaved(dncPlan, {
      runs,
      reset: () => sandbox.reset(['dnc_items']),
      env,
      serverCpu: sandbox.cpuSeconds,
    });
  }
} finally {
  far?.close();
  sandbox.stop();
}
const med = (name, count) => medians.get(`${name}, ${count.toLocaleString('en-US')}`);
if (medians.size) printImportFigures();

if (dncMedians) {
  console.log(`\nthe do-not-contact check, ${rows.toLocaleString('en-US')} rows, medians of ${runs} interleaved runs`);
  printRatioTable(dncMedians, (name) =>
    name.startsWith(`read ${tripMs}`) ? farFloor : name.startsWith('read') ? readFloor : 'import --no-dnc-check',
  );
  const [without, ...checked] = [...dncMedians.entries()].filter(([name]) => !name.startsWith('read'));
  for (const [name, run] of checked) {
    const wall = run.wall / without[1].wall;
    const more = run.rssMiB - without[1].rssMiB;
    // Run by run, each against the import without the check next to it: how far the machine's drift moves the ratio.
    const paired = run.runs.map((r, i) => r.wall / without[1].runs[i].wall);
    console.log(
      `${name}: wall <= 1.15x the import without the check ${verdict(wall <= 1.15)} (${wall.toFixed(2)}x; ` +
        `run by run ${paired.map((r) => r.toFixed(2)).join(', ')}, median ${median(paired).toFixed(2)}x); ` +
        `peak RSS <= 30 MiB more ${verdict(more <= 30)} (${more.toFixed(0)} MiB more)`,
    );
  }
  // The rows wait for the whole read, so no client reading these pages does better than this.
  const floorRead = dncMedians.get(readFloor).wall;
  console.log(
    `the read floor alone is ${((100 * floorRead) / without[1].wall).toFixed(0)}% of the import: ` +
      `a check as lean as the floor script would be at ${((without[1].wall + floorRead) / without[1].wall).toFixed(2)}x`,
  );
  // The sandbox is busy throughout the import (its CPU time is the import's wall time), so the time it spends
  // serving the pages comes on top whatever the client does: the bound no client can go under.
  const pagesCpu = dncMedians.get(readFloor).serverCpu;
  if (pagesCpu !== undefined)
    console.log(
      `the sandbox spends ${pagesCpu.toFixed(2)} s of CPU serving those pages ` +
        `(${dncMedians.get('import --no-dnc-check').serverCpu.toFixed(2)} s over the import without the check): ` +
        `with no client cost at all, the check would be at ${((without[1].wall + pagesCpu) / without[1].wall).toFixed(2)}x`,
    );
}

/** Values for the "Global do-not-contact" list, posted 5,000 a request (dncValue). */
async function addDncValues(baseUrl, key, count) {
  const { request } = await import('undici');
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  for (let first = 0; first < count; first += 5000) {
    const items = [];
    for (let i = first; i < Math.min(count, first + 5000); i++) items.push(dncValue(i));
    const res = await request(`${baseUrl}/v1/dnc`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ dncListId: 'dncGlobal1', items }),
    });
    await res.body.text();
    if (res.statusCode !== 201) throw new Error(`adding DNC values: HTTP ${res.statusCode}`);
  }
}

/** The i-th value: one in a thousand an email of the file's row i (generate-prospects.mjs), the rest emails and
 * domains that match no row: every row is looked up, and the checked import sends nearly as many rows as the one
 * without the check (stopping a tenth of them made it look faster than it is: fewer rows for the service). */
function dncValue(i) {
  if (i % 1000 === 0) return `prospect${i}@company${i % 9973}.example`;
  return i % 10 < 8 ? `person${i}@elsewhere${i % 5000}.example` : `domain${i}.example`;
}

function printImportFigures() {
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
}
