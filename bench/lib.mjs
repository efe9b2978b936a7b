// What the benchmark scripts share: a standalone sandbox, resetting it, and timing a command with GNU time.
import http from 'node:http';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const bin = fileURLToPath(new URL('../bin/outreach.js', import.meta.url));

/** The environment benchmarks run in: NODE_EXTRA_CA_CERTS adds ~50 ms to every node start here (NOTES-measured.md). */
export function benchEnv(extra = {}) {
  const env = { ...process.env, CI: 'true', ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** The "base URL: ..." line a server child process prints once it listens; `what` names it if it exits first. */
export function announcedBaseUrl(child, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const url = /^base URL: (\S+)$/m.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}`)));
  });
}

/** `outreach sandbox start --port 0` (of another build when `sandboxBin` names one); resolves with its base URL, a
 * reset and a stop function (`stopped` resolves once it has exited). */
export async function startSandbox(env, key, args = [], sandboxBin = bin) {
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=8192', sandboxBin, 'sandbox', 'start', '--port', '0', '--key', key, ...args],
    { env, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const baseUrl = await announcedBaseUrl(child, 'sandbox');
  return {
    baseUrl,
    /** The sandbox process's CPU seconds so far (user + system), where /proc says (Linux); else undefined. */
    cpuSeconds: () => processCpuSeconds(child.pid),
    /** Back to the seed, over a fresh connection (a pooled one may have been closed during a long run); `keep`
     * names tables whose resources keep their records. */
    reset: (keep) =>
      new Promise((resolve, reject) => {
        const req = http.request(
          `${baseUrl}/_sandbox/reset`,
          {
            method: 'POST',
            headers: { 'x-api-key': key, ...(keep ? { 'content-type': 'application/json' } : {}) },
            agent: false,
          },
          (res) => {
            res.resume();
            res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`reset: ${res.statusCode}`))));
          },
        );
        req.on('error', reject);
        req.end(keep ? JSON.stringify({ keep }) : undefined);
      }),
    stop: () => child.kill('SIGINT'),
    stopped: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

/** Wall seconds, client CPU seconds (user + system) and peak RSS (MiB) of a command, from GNU time; exit 0 and 3
 * (partial) count as runs. */
export function timed(argv, env, cwd) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', ...argv], {
    env,
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  if (![0, 3].includes(result.status))
    throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr.slice(-400)}`);
  const [wall, kb, user, system] = result.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall, rssMiB: kb / 1024, cpu: user + system, lines: result.stdout.split('\n').length - 1 };
}

/** A process's CPU seconds (user + system) from /proc/PID/stat, in clock ticks of 1/100 s (Linux's USER_HZ on every
 * architecture it runs on); undefined where there is no /proc. */
export function processCpuSeconds(pid) {
  try {
    // The fields after the command name (which may hold spaces), from the 3rd: utime and stime are the 14th and 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs every variant of `plan` ({name, argv}) once per round, `runs` rounds, resetting the sandbox before each;
 * gives each name's medians of wall, client CPU and peak RSS, and of the server's CPU over the run when
 * `serverCpu` reads it (seconds so far). Interleaving spreads the machine's noise evenly. A first round (`warmup`)
 * is run and not counted: the first import after the sandbox was filled took 16.8 s where the same import took 14.4
 * in every later round, and, counted, made whichever variant runs first look slower (the baseline, in import.mjs). */
export async function interleaved(plan, { runs, reset, env, cwd, serverCpu, warmup = 1 }) {
  const results = new Map();
  for (let run = -warmup; run < runs; run++) {
    for (const { name, argv } of plan) {
      await reset();
      const before = serverCpu?.();
      const r = timed(argv, env, cwd);
      const after = serverCpu?.();
      if (before !== undefined && after !== undefined) r.serverCpu = after - before;
      const server = r.serverCpu === undefined ? '' : `, server cpu ${r.serverCpu.toFixed(2)} s`;
      const round = run < 0 ? 'warm-up (not counted)' : `run ${run + 1}`;
      process.stderr.write(
        `  ${round}: ${name}: ${r.wall.toFixed(2)} s, cpu ${r.cpu.toFixed(2)} s${server}, ${r.rssMiB.toFixed(0)} MiB\n`,
      );
      if (run >= 0) results.set(name, [...(results.get(name) ?? []), r]);
    }
  }
  const medians = new Map();
  for (const [name, list] of results)
    medians.set(name, {
      wall: median(list.map((r) => r.wall)),
      cpu: median(list.map((r) => r.cpu)),
      rssMiB: median(list.map((r) => r.rssMiB)),
      serverCpu: list.every((r) => r.serverCpu !== undefined) ? median(list.map((r) => r.serverCpu)) : undefined,
      /** Each run's figures, in the order run: a variant's run n was next to every other variant's run n. */
      runs: list,
    });
  return medians;
}

/** One line per variant: wall and CPU medians with their ratios to the variant `baselineOf(name)` names. */
export function printRatioTable(medians, baselineOf) {
  console.log(
    ['variant'.padEnd(40), 'wall s', ' x base', ' cpu s', ' x base', 'RSS MiB'].map((c) => c.padStart(7)).join(' '),
  );
  for (const [name, r] of medians) {
    const base = medians.get(baselineOf(name));
    console.log(
      [
        name.padEnd(40),
        r.wall.toFixed(2).padStart(7),
        (r.wall / base.wall).toFixed(2).padStart(7),
        r.cpu.toFixed(2).padStart(7),
        (r.cpu / base.cpu).toFixed(2).padStart(7),
        r.rssMiB.toFixed(0).padStart(7),
      ].join(' '),
    );
  }
}

export const verdict = (ok) => (ok ? 'met' : 'NOT met');
