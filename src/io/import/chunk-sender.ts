// Sends spooled chunks with bounded concurrency. submit() waits while the limit is reached, so reading the
// file pauses instead of piling chunks up; the first failure stops everything.
export class ChunkSender<C, R> {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;
  private failed = false;

  constructor(
    private readonly concurrency: number,
    private readonly send: (chunk: C) => Promise<R>,
    private readonly onDone: (chunk: C, result: R) => void,
  ) {}

  async submit(chunk: C): Promise<void> {
    this.throwIfFailed();
    while (this.inFlight.size >= this.concurrency) {
      await Promise.race(this.inFlight);
      this.throwIfFailed();
    }
    const task = this.send(chunk).then(
      (result) => this.onDone(chunk, result),
      (error: unknown) => {
        if (!this.failed) {
          this.failed = true;
          this.failure = error;
        }
      },
    );
    const tracked = task.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  /** Waits for every chunk under way; throws the first failure. */
  async drain(): Promise<void> {
    while (this.inFlight.size) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failed) throw this.failure;
  }
}
