// What one request listens to: the command's signals and its own deadline. No AbortController and no EventTarget
// listener a request: a list of a million DNC values is ten thousand requests in a few seconds, and a listener added
// to an AbortSignal for each of them (ours, or node:http's for its `signal` option) kept request state alive past the
// young generation (reading the million promoted 13 MB of it, 9 MB without). One listener a command signal serves
// every request of a client; a request's deadline is a timer, cleared when it ends.
import type { Cancellation } from './transport.js';

export interface RequestWatch extends Cancellation {
  /** Whether it was the deadline that cancelled the request. */
  timedOut(): boolean;
  /** Stops the deadline and the listening; call once the request has ended. */
  dispose(): void;
}

/** The requests of one client, by the command signal they listen to: told once when it aborts. */
export class RequestWatches {
  private readonly inFlight = new WeakMap<AbortSignal, Set<() => void>>();

  watch(parents: AbortSignal[], timeoutMs: number): RequestWatch {
    let aborted = parents.some((parent) => parent.aborted);
    let timedOut = false;
    let abort: (() => void) | undefined;
    const cancel = () => {
      if (aborted) return;
      aborted = true;
      abort?.();
    };
    const timer = setTimeout(() => {
      timedOut = !aborted;
      cancel();
    }, timeoutMs);
    timer.unref(); // a request in flight keeps the process up on its own; a deadline must not
    if (!aborted) for (const parent of parents) this.requestsOf(parent).add(cancel);
    return {
      get aborted() {
        return aborted;
      },
      onCancel(then) {
        abort = then;
        if (aborted) then();
        return () => (abort = undefined);
      },
      timedOut: () => timedOut,
      dispose: () => {
        clearTimeout(timer);
        abort = undefined;
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
}
