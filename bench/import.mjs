#!/usr/bin/env node
// Import benchmark: `outreach prospects import` of a 1,000,000-row realistic CSV into a standalone sandbox, next to
// (a) the floor (floor-import.mjs) and (b) a naive script (naive-import.mjs), in one run, against the same sandbox
// (reset before each run). Wall time and peak RSS come from GNU time (`apt-get install time`).
// BENCH_ROWS (default 1000000) and BENCH_RUNS (default 2) change the size and repetitions.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import http from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateProspects } from './generate-prospects.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const bin = here('../bin/outreach.js');
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
const env = { ...process.env, OUTREACH_CONFIG_DIR: `${outDir}config`, CI: 'true' };
delete env.NODE_EXTRA_CA_CERTS;

const key = 'sk_bench_import_0123456789';
const sandbox = spawn(process.execPath, ['--max-old-space-size=8192', bin, 'sandbox', 'start', '--port', '0', '--key', key], { env, stdio: ['ignore', 'pipe', 'inherit'] });
const baseUrl = await new Promise((resolve, reject) => {
  let out = '';
  sandbox.stdout.on('data', (d) => {
    out += d;
    const url = /^base URL: (\S+)$/m.exec(out)?.[1];
    if (url) resolve(url);
  });
  sandbox.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
});
Object.assign(env, { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: key });

// A fresh connection each time: a pooled one may have been closed by the server during a long run.
function reset() {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}/_sandbox/reset`, { method: 'POST', headers: { 'x-api-key': key }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`reset failed: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function timed(argv) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', ...argv], { env, encoding: 'utf8', maxBuffer: 64 << 20 });
  const last = result.stderr.trim().split('\n').pop();
  const [wall, kb] = last.split(' ').map(Number);
  if (![0, 3].includes(result.status)) throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr.slice(-500)}`);
  return { wall, rssMiB: kb / 1024 };
}

const variants = [
  ['floor (csv-parse -> request bodies)', (file) => [process.execPath, here('./floor-import.mjs'), file, baseUrl, key], bigFile, rows],
  ['naive (readFileSync + parse/sync)', (file) => [process.execPath, here('./naive-import.mjs'), file, baseUrl, key], bigFile, rows],
  ['outreach prospects import --no-wait', (file) => [process.execPath, bin, 'prospects', 'import', file, '--no-wait', '--restart', '-q'], bigFile, rows],
  [`outreach, ${small.toLocaleString('en-US')} rows`, (file) => [process.execPath, bin, 'prospects', 'import', file, '--no-wait', '--restart', '-q'], smallFile, small],
  ['outreach prospects import --wait', (file) => [process.execPath, bin, 'prospects', 'import', file, '--wait', '--restart', '-q'], bigFile, rows],
];

const results = new Map();
try {
  for (let run = 0; run < runs; run++) {
    for (const [name, argv, file, count] of variants) {
      if (name.includes('--wait') && run > 0) continue;
      await reset();
      const { wall, rssMiB } = timed(argv(file));
      process.stderr.write(`  run ${run + 1}: ${name}: ${wall.toFixed(1)} s, ${rssMiB.toFixed(0)} MiB\n`);
      const list = results.get(name) ?? [];
      list.push({ wall, rssMiB, rowsPerSecond: count / wall });
      results.set(name, list);
    }
  }
} finally {
  sandbox.kill('SIGINT');
}

const best = (name) => {
  const list = results.get(name);
  return { rowsPerSecond: Math.max(...list.map((r) => r.rowsPerSecond)), rssMiB: Math.max(...list.map((r) => r.rssMiB)), wall: Math.min(...list.map((r) => r.wall)) };
};
const floor = best(variants[0][0]);
console.log(`import of ${rows.toLocaleString('en-US')} rows (${(statSync(bigFile).size / 1048576).toFixed(0)} MiB), best of ${runs}, NODE_EXTRA_CA_CERTS unset`);
console.log(`${'variant'.padEnd(40)} ${'wall s'.padStart(7)} ${'rows/s'.padStart(9)} ${'x floor'.padStart(8)} ${'peak RSS MiB'.padStart(13)}`);
for (const [name] of variants) {
  const r = best(name);
  console.log(`${name.padEnd(40)} ${r.wall.toFixed(1).padStart(7)} ${Math.round(r.rowsPerSecond).toString().padStart(9)} ${(r.rowsPerSecond / floor.rowsPerSecond).toFixed(2).padStart(8)} ${r.rssMiB.toFixed(0).padStart(13)}`);
}
const ours = best(variants[2][0]);
const oursSmall = best(variants[3][0]);
console.log(`targets: rows/s >= 0.85x floor: ${(ours.rowsPerSecond / floor.rowsPerSecond).toFixed(2)}x; peak RSS <= 150 MiB: ${ours.rssMiB.toFixed(0)} MiB; RSS within 1.3x of the ${small.toLocaleString('en-US')}-row run: ${(ours.rssMiB / oursSmall.rssMiB).toFixed(2)}x`);
