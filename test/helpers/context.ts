// A Context for tests: captured stdout/stderr, a private config folder, a clock whose sleeps return at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { Clock, Context } from '../../src/context.js';
import { scriptedPrompter, type ScriptedAnswer } from './prompter.js';

export interface Captured {
  ctx: Context;
  stdout(): string;
  stderr(): string;
  /** Every delay the code asked the clock to sleep, in order. */
  sleeps: number[];
  abort(): void;
}

export interface TestContextOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Readable;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** The terminal's width (default 100). */
  columns?: number;
  configDir?: string;
  cwd?: string;
  /** The clock (default: testTime, pinned to a fixed date). */
  now?: () => number;
  /** Answers to the questions the command asks, in order. */
  answers?: ScriptedAnswer[];
}

/** Captures text. Like process.stdout/stderr it stays open when a writer ends it (prompt libraries pipe into it). */
class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
  override end(...args: unknown[]): this {
    const callback = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    callback?.();
    return this;
  }
}

let tempRoot: string | undefined;

/** A fresh folder inside this test file's own folder under the system's temporary one, which removeTempDirs takes
 * away after the file's tests (test/helpers/setup.ts): a run of the suite makes some 4,000 of them. */
export function tempDir(prefix = 'outreach-test-'): string {
  tempRoot ??= mkdtempSync(join(tmpdir(), 'outreach-tests-'));
  return mkdtempSync(join(tempRoot, prefix));
}

export function removeTempDirs(): void {
  if (tempRoot) rmSync(tempRoot, { recursive: true, force: true });
  tempRoot = undefined;
}

/** Wednesday 18 November 2026, 12:00 UTC: weeks away from any daylight-saving change in Europe or America. */
export const pinnedNow = Date.UTC(2026, 10, 18, 12);

/**
 * Time as tests see it: a pinned date plus every sleep a test context took, never the real date. The test sandbox
 * reads the same clock, so a command polling an asynchronous job moves the sandbox's time forward instead of spinning.
 */
export const testTime = {
  offset: 0,
  now: () => pinnedNow + testTime.offset,
};

export function createTestContext(options: TestContextOptions = {}): Captured {
  const stdout = new Sink();
  const stderr = new Sink();
  const sleeps: number[] = [];
  const controller = new AbortController();
  const stopNow = new AbortController();
  const clock: Clock = {
    now: options.now ?? testTime.now,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      testTime.offset += ms;
    },
  };
  const stdin =
    typeof options.stdin === 'string'
      ? Readable.from([Buffer.from(options.stdin)])
      : (options.stdin ?? Readable.from([]));
  const ctx: Context = {
    stdin: stdin instanceof PassThrough || stdin instanceof Readable ? stdin : Readable.from([]),
    stdout,
    stderr,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    columns: options.columns ?? 100,
    // No test asks the machine's DNS resolver: `domains check` without --resolver asks port 1 on loopback (refused).
    env: { OUTREACH_RESOLVER: '127.0.0.1:1', ...options.env },
    // Never the repository: a command that writes a journal or report beside its input must not write into it.
    cwd: options.cwd ?? tempDir(),
    configDir: options.configDir ?? tempDir(),
    clock,
    random: () => 0.5,
    prompter: scriptedPrompter([...(options.answers ?? [])], stderr),
    signal: controller.signal,
    stopNow: stopNow.signal,
    pid: 4242,
    dispose() {},
  };
  return {
    ctx,
    stdout: () => stdout.text,
    stderr: () => stderr.text,
    sleeps,
    abort: () => controller.abort(new Error('interrupted')),
  };
}
