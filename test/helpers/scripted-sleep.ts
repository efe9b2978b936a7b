// A sleep a test drives instead of the wall clock: every delay asked for is recorded; a sleep either returns at once
// or waits until the test says its time has passed (or its signal aborts), as the test chooses.
import type { Clock } from '../../src/context.js';

interface Waiting {
  ms: number;
  resolve(): void;
}

export class ScriptedSleep {
  /** Every delay asked for, in order (those still waiting included). */
  readonly requested: number[] = [];
  private waiting: Waiting[] = [];
  private watchers: Array<() => void> = [];

  /** `holding`: sleeps wait for elapse(); otherwise they return at once until hold(). */
  constructor(private holding: boolean) {}

  readonly sleep: Clock['sleep'] = (ms, signal) => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.requested.push(ms);
    if (!this.holding) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = {
        ms,
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.waiting = this.waiting.filter((w) => w !== entry);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
      for (const watcher of [...this.watchers]) watcher();
    });
  };

  /** From now on every sleep waits until elapse(). */
  hold(): void {
    this.holding = true;
  }

  /** The delays waiting now. */
  pending(): number[] {
    return this.waiting.map((w) => w.ms);
  }

  /** Resolves once a sleep of `ms` is waiting. */
  waitingFor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.waiting.some((w) => w.ms === ms)) return;
        this.watchers = this.watchers.filter((w) => w !== check);
        resolve();
      };
      this.watchers.push(check);
      check();
    });
  }

  /** Ends the sleeps of `ms` waiting now (every waiting sleep without `ms`): their time has passed. */
  elapse(ms?: number): void {
    const due = this.waiting.filter((w) => ms === undefined || w.ms === ms);
    this.waiting = this.waiting.filter((w) => !due.includes(w));
    for (const w of due) w.resolve();
  }
}
