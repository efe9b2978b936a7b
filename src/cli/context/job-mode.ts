// How a command behaves while it runs a job, against a single request: a job waits out rate limits for longer (15
// minutes unless --rate-limit-wait says), lets requests already sent be answered after a first Ctrl-C (so --resume
// does not send them again) for up to interruptGraceMs, and shows its progress in a spinner.
import { clockTime } from '../../clock-time.js';
import type { Clock, InterruptWords } from '../../context.js';
import { Interrupted } from '../../errors.js';

/** After a first Ctrl-C in a job, how long requests already sent may take to be answered. */
export const interruptGraceMs = 30_000;
/** How long a single request waits out a rate limit unless --rate-limit-wait says: a person wants an answer soon. */
const requestRateLimitWaitMs = 30_000;
const jobRateLimitWaitMs = 900_000;
/** Concurrent requests of one burst all meet the limit: the wait is said once a minute. */
const rateLimitNoticeEveryMs = 60_000;

export interface JobModeSettings {
  clock: Clock;
  /** Aborted by the first Ctrl-C. */
  signal: AbortSignal;
  /** Aborted by the second Ctrl-C. */
  stopNow: AbortSignal;
  /** --rate-limit-wait in ms, when given. */
  rateLimitWaitMs: number | undefined;
  /** Whether requests of this command are still unanswered. */
  requestsInFlight(): boolean;
  note(message: string): void;
  /** How the notes name stopping at once and resuming; a terminal's words unless given. */
  words?: InterruptWords;
}

const terminalWords: InterruptWords = { stopAtOnce: 'Ctrl-C again', resume: '--resume' };

export class JobMode {
  private running = false;
  /** Once a job has started, the command keeps the job's patience with rate limits. */
  private jobStarted = false;
  private lastRateLimitNotice = -Infinity;
  private readonly grace = new AbortController();
  private readonly ended = new AbortController();
  /** What requestSignals gives, made once: it is asked for every request. */
  private readonly jobSignals: readonly AbortSignal[];
  private readonly commandSignals: readonly AbortSignal[];

  constructor(private readonly settings: JobModeSettings) {
    this.jobSignals = [settings.stopNow, this.grace.signal];
    this.commandSignals = [settings.signal];
    settings.signal.addEventListener('abort', () => this.interrupted(), { once: true });
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** How long a request may wait out a rate limit in all. */
  rateLimitWaitMs(): number {
    return this.settings.rateLimitWaitMs ?? (this.jobStarted ? jobRateLimitWaitMs : requestRateLimitWaitMs);
  }

  /** What a request listens to: the first Ctrl-C outside a job, the grace's end or a second Ctrl-C inside one. */
  requestSignals(): readonly AbortSignal[] {
    return this.running ? this.jobSignals : this.commandSignals;
  }

  async run<T>(work: () => Promise<T>, stopped: () => void): Promise<T> {
    this.running = true;
    this.jobStarted = true;
    try {
      return await work();
    } finally {
      this.running = false;
      stopped();
    }
  }

  /** Says the service is rate-limiting: the next try and when the command gives up. */
  noticeRateLimitWait(waitMs: number, giveUpAt: number): void {
    const now = this.settings.clock.now();
    if (now - this.lastRateLimitNotice < rateLimitNoticeEveryMs) return;
    this.lastRateLimitNotice = now;
    const until = clockTime(giveUpAt);
    this.settings.note(
      `waiting: the service is rate-limiting (HTTP 429); next try in ${Math.ceil(waitMs / 1000)}s, ` +
        `giving up at ${until} (--rate-limit-wait ${this.rateLimitWaitMs() / 1000})`,
    );
  }

  /** The command is over: a grace still counting stops. */
  end(): void {
    this.ended.abort();
  }

  private interrupted(): void {
    if (!this.running || !this.settings.requestsInFlight()) return;
    const words = this.settings.words ?? terminalWords;
    this.settings.note(
      // "Under way", not "sent": the requests may be reads (a list's pages), and nothing of the user's went yet.
      `stopping: nothing new is sent; waiting up to ${interruptGraceMs / 1000}s for the requests under way to be ` +
        `answered${words.stopAtOnce ? ` (${words.stopAtOnce} to stop at once)` : ''}`,
    );
    this.settings.clock.sleep(interruptGraceMs, AbortSignal.any([this.settings.stopNow, this.ended.signal])).then(
      () =>
        this.grace.abort(
          new Interrupted(
            'interrupted',
            `Requests still unanswered after ${interruptGraceMs / 1000}s were cut; ${words.resume} sends them again.`,
          ),
        ),
      () => undefined,
    );
  }
}
