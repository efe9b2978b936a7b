// What one request listens to: the command's signals and its own deadline. Neither an AbortController nor an
// EventTarget listener a request: a listener added to an AbortSignal for each request (ours, or node:http's for its
// `signal` option) kept its objects alive past the young generation, and a list of a million DNC values is ten
// thousand requests in a few seconds: reading it grew the young generation from 8 to 32 MB and the old one by as much
// again. One listener a command signal, for every request; a timer a request, cleared when it ends.
import type { Cancellation } from './transport.js';

export interface RequestWatch extends Cancellation {
  /** Whether it was the deadline that cancelled the request. */
  timedOut(): boolean;
  /** Stops the deadline and the listening; call once the request has ended. */
  dispose(): void;
}

/** Each command signal's requests in flight, told once when it aborts. */
const inFlight = new WeakMap<AbortSignal, Set<() => void>>();

function requestsOf(signal: AbortSignal): Set<() => void> {
  let requests = inFlight.get(signal);
  if (!requests) {
    const set = (requests = new Set());
    inFlight.set(signal, set);
    signal.addEventListener('abort', () => [...set].forEach((cancel) => cancel()), { once: true });
  }
  return requests;
}

export function watchRequest(parents: AbortSignal[], timeoutMs: number): RequestWatch {
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
  if (!aborted) for (const parent of parents) requestsOf(parent).add(cancel);
  return {
    get aborted() {
      return aborted;
    },
    onCancel(then) {
      abort = then;
      if (aborted) then();
    },
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      abort = undefined;
      for (const parent of parents) inFlight.get(parent)?.delete(cancel);
    },
  };
}
