// Polls until a job is done: starts quickly, backs off to a ceiling, stops on Ctrl-C.
import type { Clock } from '../context.js';
import { Interrupted } from '../errors.js';

export interface PollOptions {
  clock: Clock;
  signal: AbortSignal;
  initialMs?: number;
  maxMs?: number;
}

export async function pollUntil<T>(
  check: () => Promise<T>,
  isDone: (value: T) => boolean,
  options: PollOptions,
): Promise<T> {
  let delay = options.initialMs ?? 500;
  const ceiling = options.maxMs ?? 10_000;
  for (;;) {
    const value = await check();
    if (isDone(value)) return value;
    try {
      await options.clock.sleep(delay, options.signal);
    } catch {
      throw new Interrupted();
    }
    delay = Math.min(ceiling, Math.round(delay * 1.5));
  }
}
