// What one request listens to: the command's signals and its own deadline. No AbortController and no EventTarget
// listener a request: a list of a million DNC values is ten thousand requests in a few seconds, and a listener added
// to an AbortSignal for each of them (ours, or node:http's for its `signal` option) kept request state alive past the
// young generation (reading the million promoted 13 MB of it, 9 MB without). One listener a command signal serves
// every request of a client; a request's deadline is a timer, cleared when it ends. A watch is one object, its
// timer's callback shared, where it was five closures and an object of them: a cost paid ten thousand times.
import type { Cancellation } from './transport.js';

export interface RequestWatch extends Cancellation {
  /** Whether it was the deadline that cancelled the request. */
  timedOut(): boolean;
  /** Stops the deadline and the listening; call once the request has ended. */
  dispose(): void;
}

/** The requests of one client, by the command signal they listen to: told once when it aborts. */
export class RequestWatches {
  private readonly inFlight = new WeakMap<AbortSignal, Set<Watch>>();

  watch(parents: readonly AbortSignal[], timeoutMs: number): RequestWatch {
    const watch = new Watch(this, parents, timeoutMs);
    if (!watch.aborted) for (const parent of parents) this.requestsOf(parent).add(watch);
    return watch;
  }

  /** A watch that has ended listens no more. */
  forget(watch: Watch, parents: readonly AbortSignal[]): void {
    for (const parent of parents) this.inFlight.get(parent)?.delete(watch);
  }

  private requestsOf(signal: AbortSignal): Set<Watch> {
    let requests = this.inFlight.get(signal);
    if (!requests) {
      const set = (requests = new Set());
      this.inFlight.set(signal, set);
      signal.addEventListener('abort', () => [...set].forEach((watch) => watch.cancel()), { once: true });
    }
    return requests;
  }
}

class Watch implements RequestWatch {
  aborted: boolean;
  private expired = false;
  private abort: (() => void) | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly owner: RequestWatches,
    private readonly parents: readonly AbortSignal[],
    timeoutMs: number,
  ) {
    this.aborted = parents.some((parent) => parent.aborted);
    this.timer = setTimeout(expire, timeoutMs, this);
    this.timer.unref(); // a request in flight keeps the process up on its own; a deadline must not
  }

  onCancel(then: () => void): () => void {
    this.abort = then;
    if (this.aborted) then();
    return () => (this.abort = undefined);
  }

  cancel(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abort?.();
  }

  /** The deadline passed: the request is cancelled, unless something cancelled it first. */
  expire(): void {
    this.expired = !this.aborted;
    this.cancel();
  }

  timedOut(): boolean {
    return this.expired;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.abort = undefined;
    this.owner.forget(this, this.parents);
  }
}

function expire(watch: Watch): void {
  watch.expire();
}
