// What one request listens to: the command's signals and its own deadline. Neither an AbortController, nor an
// EventTarget listener, nor a timer a request: a list of a million DNC values is ten thousand requests in a few
// seconds, and each of those kept request state alive past the young generation. A listener added to an AbortSignal
// for each request (ours, or node:http's for its `signal` option) grew the young generation from 8 to 32 MB; a timer
// for each request's deadline made V8 allocate an object of every later request in the old generation
// (allocation-site pretenuring), so the import after the read filled it with garbage: 40 MB more at its peak. Here one
// listener a command signal serves every request, and one timer, set for the earliest deadline, serves them all.
import type { Cancellation } from './transport.js';

export interface RequestWatch extends Cancellation {
  /** Whether it was the deadline that cancelled the request. */
  timedOut(): boolean;
  /** Stops the deadline and the listening; call once the request has ended. */
  dispose(): void;
}

/** The requests of one client: each command signal's requests in flight (told once when it aborts), and each
 * request's deadline (performance.now(): monotonic, as the timer is) with the one timer, set for the earliest. */
export class RequestWatches {
  private readonly inFlight = new WeakMap<AbortSignal, Set<() => void>>();
  private readonly deadlines = new Map<() => void, number>();
  private timer: { handle: NodeJS.Timeout; at: number } | undefined;

  watch(parents: AbortSignal[], timeoutMs: number): RequestWatch {
    let aborted = parents.some((parent) => parent.aborted);
    let timedOut = false;
    let abort: (() => void) | undefined;
    const cancel = () => {
      if (aborted) return;
      aborted = true;
      abort?.();
    };
    const timeOut = () => {
      this.deadlines.delete(timeOut);
      timedOut = !aborted;
      cancel();
    };
    if (!aborted) {
      for (const parent of parents) this.requestsOf(parent).add(cancel);
      const at = performance.now() + timeoutMs;
      this.deadlines.set(timeOut, at);
      this.armFor(at);
    }
    return {
      get aborted() {
        return aborted;
      },
      onCancel(then) {
        abort = then;
        if (aborted) then();
      },
      timedOut: () => timedOut,
      dispose: () => {
        abort = undefined;
        this.deadlines.delete(timeOut);
        for (const parent of parents) this.inFlight.get(parent)?.delete(cancel);
      },
    };
  }

  private requestsOf(signal: AbortSignal): Set<() => void> {
    let requests = this.inFlight.get(signal);
    if (!requests) {
      const set = (requests = new Set());
      this.inFlight.set(signal, set);
      signal.addEventListener('abort', () => [...set].forEach((cancel) => cancel()), { once: true });
    }
    return requests;
  }

  private armFor(at: number): void {
    if (this.timer && this.timer.at <= at) return;
    if (this.timer) clearTimeout(this.timer.handle);
    const handle = setTimeout(() => this.expire(), Math.max(0, at - performance.now()));
    handle.unref(); // a request in flight keeps the process up on its own; a deadline must not
    this.timer = { handle, at };
  }

  /** Times out every request past its deadline, and sets the timer for the next. */
  private expire(): void {
    this.timer = undefined;
    const now = performance.now();
    let next = Infinity;
    for (const [timeOut, at] of this.deadlines) {
      if (at <= now) timeOut();
      else next = Math.min(next, at);
    }
    if (next < Infinity) this.armFor(next);
  }
}
