// Polls until a job is done: starts quickly, backs off to a ceiling, stops on Ctrl-C, and gives up at a deadline
// with a message that says how to check later.
import type { Clock } from '../context.js';
import { Interrupted, WaitTimedOut } from '../errors.js';
import type { NextStep } from '../next-step.js';

export { WaitTimedOut } from '../errors.js';

export interface PollOptions {
  clock: Clock;
  signal: AbortSignal;
  /** How long to wait in all (--wait-timeout). */
  timeoutMs: number;
  /** What is waited for, for the message: "import aB3dE5fG". */
  what: string;
  /** How to check on the work later, said when the wait gives up. */
  later: NextStep;
  /** The first wait between checks (default 500 ms). */
  initialMs?: number;
  /** How much each later wait grows (default 1.5). */
  growth?: number;
  maxMs?: number;
}

export async function pollUntil<T>(
  check: () => Promise<T>,
  isDone: (value: T) => boolean,
  options: PollOptions,
): Promise<T> {
  const ceiling = options.maxMs ?? 10_000;
  const growth = options.growth ?? 1.5;
  const deadline = options.clock.now() + options.timeoutMs;
  let delay = options.initialMs ?? 500;
  for (;;) {
    const value = await check();
    if (isDone(value)) return value;
    const left = deadline - options.clock.now();
    if (left <= 0) {
      throw new WaitTimedOut(options.what, options.timeoutMs, options.later);
    }
    await sleepOrStop(Math.min(delay, left), options);
    delay = Math.min(ceiling, Math.round(delay * growth));
  }
}

/** Sleeps on the job's clock; Ctrl-C during the sleep ends the job as Interrupted. */
export async function sleepOrStop(ms: number, options: Pick<PollOptions, 'clock' | 'signal'>): Promise<void> {
  try {
    await options.clock.sleep(ms, options.signal);
  } catch {
    throw new Interrupted();
  }
}
