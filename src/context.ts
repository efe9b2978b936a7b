// Context: everything a command may need from the outside world, injected so tests control it.
// Only this file and src/main.ts may touch process, console, Date.now and Math.random.
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Interrupted, OutputClosed } from './errors.js';
import type { JobEvent } from './jobs/events.js';
import { createInquirerPrompter, type Prompter } from './prompter.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Clock {
  now(): number;
  /** Resolves after ms, or rejects with the signal's reason once it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Context {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  env: Env;
  cwd: string;
  /** Default config folder: OUTREACH_CONFIG_DIR, else $XDG_CONFIG_HOME/outreach, else ~/.config/outreach. */
  configDir: string;
  clock: Clock;
  random(): number;
  /** Asks questions on a terminal (only when the command may be interactive). */
  prompter: Prompter;
  /** Aborted on the first Ctrl-C (SIGINT) or SIGTERM: start nothing new. */
  signal: AbortSignal;
  /** Aborted on the second: stop what is under way too (a job lets its requests in flight finish until then). */
  stopNow: AbortSignal;
  pid: number;
  /** Hears every event a job of this run emits, beside its renderer (`outreach mcp` reports a job's progress). */
  observe?: (event: JobEvent) => void;
  /** How a stopped job's notes name stopping at once and resuming, when not as at a terminal ("Ctrl-C again",
   * "--resume"): `outreach mcp` has no second stop for one job, and resumes with its job_resume tool. */
  interruptWords?: InterruptWords;
  dispose(): void;
}

export interface InterruptWords {
  /** What stops a stopping job at once, if anything does. */
  stopAtOnce?: string;
  /** What sends a stopped job's unanswered requests again. */
  resume: string;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

export function defaultConfigDir(env: Env, home: string): string {
  if (env.OUTREACH_CONFIG_DIR) return env.OUTREACH_CONFIG_DIR;
  const base = env.XDG_CONFIG_HOME || join(home, '.config');
  return join(base, 'outreach');
}

export function createProcessContext(): Context {
  const controller = new AbortController();
  const stopNow = new AbortController();
  let interrupts = 0;
  const onSignal = (name: NodeJS.Signals) => {
    interrupts += 1;
    if (interrupts === 1) controller.abort(new Interrupted(`interrupted by ${name}`));
    // A second means "now": requests in flight are cut, cleanup still runs.
    else if (interrupts === 2) stopNow.abort(new Interrupted(`stopped at once by a second ${name}`));
    else process.exit(130); // a third: something is stuck, leave without cleaning up
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A closed pipe (`| head`) is the reader saying "enough": stop paging and exit 141, as a tool killed by SIGPIPE
  // would, without a stack trace. The error may arrive after the command finished, so it sets the code itself.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    process.exitCode = error.code === 'EPIPE' ? 141 : 1;
    if (error.code !== 'EPIPE') process.stderr.write(`error: cannot write to stdout: ${error.message}\n`);
    controller.abort(new OutputClosed(error.code !== 'EPIPE'));
  });
  // Getters: process.stdin and process.stderr build their streams on first use, which costs every start that never
  // reads stdin or writes to stderr (`--help`, a plain GET).
  // A command reading stdin (`dnc add -`, `prospects import -`) waits on it: Ctrl-C ends that wait.
  let stdinUsed = false;
  controller.signal.addEventListener('abort', () => {
    if (stdinUsed) process.stdin.destroy();
  });
  return {
    get stdin() {
      stdinUsed = true;
      return process.stdin;
    },
    stdout: process.stdout,
    get stderr() {
      return process.stderr;
    },
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    get stderrIsTTY() {
      return Boolean(process.stderr.isTTY);
    },
    get columns() {
      return process.stdout.columns || process.stderr.columns || 80;
    },
    env: process.env,
    cwd: process.cwd(),
    configDir: defaultConfigDir(process.env, homedir()),
    clock: realClock,
    random: Math.random,
    prompter: createInquirerPrompter(() => ({ input: process.stdin, output: process.stderr }), controller.signal),
    signal: controller.signal,
    stopNow: stopNow.signal,
    pid: process.pid,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
