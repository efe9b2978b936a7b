// A Context for tests: captured stdout/stderr, a private config folder, a clock whose sleeps return at once.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable, Writable } from 'node:stream';
import type { Clock, Context } from '../../src/context.js';

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
  configDir?: string;
  cwd?: string;
  /** Starting point of the clock (default: the real time). */
  now?: () => number;
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.text += chunk.toString('utf8');
    callback();
  }
}

export function tempDir(prefix = 'outreach-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function createTestContext(options: TestContextOptions = {}): Captured {
  const stdout = new Sink();
  const stderr = new Sink();
  const sleeps: number[] = [];
  const controller = new AbortController();
  let offset = 0;
  const now = options.now ?? (() => Date.now());
  const clock: Clock = {
    now: () => now() + offset,
    async sleep(ms, signal) {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      offset += ms;
    },
  };
  const stdin = typeof options.stdin === 'string' ? Readable.from([Buffer.from(options.stdin)]) : (options.stdin ?? Readable.from([]));
  const ctx: Context = {
    stdin: stdin instanceof PassThrough || stdin instanceof Readable ? stdin : Readable.from([]),
    stdout,
    stderr,
    stdinIsTTY: options.stdinIsTTY ?? false,
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: options.stderrIsTTY ?? false,
    columns: 100,
    env: { ...options.env },
    cwd: options.cwd ?? process.cwd(),
    configDir: options.configDir ?? tempDir(),
    clock,
    random: () => 0.5,
    signal: controller.signal,
    pid: 4242,
    dispose() {},
  };
  return { ctx, stdout: () => stdout.text, stderr: () => stderr.text, sleeps, abort: () => controller.abort(new Error('interrupted')) };
}
