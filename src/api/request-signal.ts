// What one request listens to: the command's signal and its own deadline. Made by hand instead of with
// AbortSignal.timeout and AbortSignal.any: those leave a timer and a dependent signal behind each request until the
// deadline passes or a GC collects them (Node 20), and a list of a million DNC values is ten thousand requests in a
// few seconds: their timers and signals were most of the heap that reading grew. Here both go when the request ends.

export interface RequestSignal {
  signal: AbortSignal;
  /** Whether it was the deadline that aborted the request. */
  timedOut(): boolean;
  /** Stops the deadline and the listening; call once the request has ended. */
  dispose(): void;
}

export function requestSignal(parents: AbortSignal[], timeoutMs: number): RequestSignal {
  const controller = new AbortController();
  let timedOut = false;
  const fromParent = (event: Event) => controller.abort((event.target as AbortSignal).reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The request took too long', 'TimeoutError'));
  }, timeoutMs);
  timer.unref(); // a request in flight keeps the process up on its own; a deadline must not
  for (const parent of parents) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', fromParent, { once: true });
  }
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose() {
      clearTimeout(timer);
      for (const parent of parents) parent.removeEventListener('abort', fromParent);
    },
  };
}
