// Runs units of work (import chunks, DNC chunks, bulk-skip batches) with bounded concurrency. submit() waits while
// the limit is reached, so reading the input pauses instead of piling units up; the first failure stops everything.
// `before` runs just before a unit is sent and `after` once the service answered: that is where jobs journal.
// After Ctrl-C (the stop signal) nothing new starts, and what is under way is waited for by drain().
export interface UnitHooks<U, R> {
  before?(unit: U): void;
  after(unit: U, result: R): void;
}

export class UnitRunner<U, R> {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;

  constructor(
    private readonly concurrency: number,
    private readonly send: (unit: U) => Promise<R>,
    private readonly hooks: UnitHooks<U, R>,
    /** Aborted (Ctrl-C): no unit starts; those under way go on to their answer. */
    private readonly stop?: AbortSignal,
  ) {}

  async submit(unit: U): Promise<void> {
    if (this.failure) return this.drain();
    while (this.inFlight.size >= this.concurrency) {
      await Promise.race(this.inFlight);
      // A failure stops the job only once every unit under way has settled, so none outlives the command.
      if (this.failure) return this.drain();
    }
    if (this.stop?.aborted) {
      this.failure = { error: this.stop.reason };
      return this.drain();
    }
    this.hooks.before?.(unit);
    const task = this.send(unit).then(
      (result) => this.hooks.after(unit, result),
      (error: unknown) => {
        this.failure ??= { error };
      },
    );
    const tracked = task.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Waits for every unit under way; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inFlight.size) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
