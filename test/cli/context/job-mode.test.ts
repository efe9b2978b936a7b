import { describe, expect, it } from 'vitest';
import { interruptGraceMs, JobMode } from '../../../src/cli/context/job-mode.js';
import { Interrupted } from '../../../src/errors.js';
import { ScriptedSleep } from '../../helpers/scripted-sleep.js';

/** Aborted when any of a request's signals is. */
const anyOf = (signals: readonly AbortSignal[]) => AbortSignal.any([...signals]);

function jobMode(options: { rateLimitWaitMs?: number; inFlight?: boolean } = {}) {
  const sleep = new ScriptedSleep(true);
  let now = Date.UTC(2026, 10, 18, 12);
  const first = new AbortController();
  const second = new AbortController();
  const notes: string[] = [];
  const mode = new JobMode({
    clock: { now: () => now, sleep: sleep.sleep },
    signal: first.signal,
    stopNow: second.signal,
    rateLimitWaitMs: options.rateLimitWaitMs,
    requestsInFlight: () => options.inFlight ?? true,
    note: (line) => notes.push(line),
  });
  return {
    mode,
    sleep,
    notes,
    ctrlC: () => first.abort(),
    again: () => second.abort(),
    tick: (ms: number) => (now += ms),
  };
}

describe('job mode', () => {
  it('waits out rate limits 30 s for a request, 15 minutes once a job has started, or as --rate-limit-wait says', async () => {
    const { mode } = jobMode();
    expect(mode.rateLimitWaitMs()).toBe(30_000);
    await mode.run(
      async () => expect(mode.rateLimitWaitMs()).toBe(900_000),
      () => undefined,
    );
    expect(mode.rateLimitWaitMs()).toBe(900_000);
    const given = jobMode({ rateLimitWaitMs: 5_000 }).mode;
    await given.run(
      async () => expect(given.rateLimitWaitMs()).toBe(5_000),
      () => undefined,
    );
  });

  it('says a rate-limit wait once a minute, with the next try and when it gives up', () => {
    const { mode, notes, tick } = jobMode();
    mode.noticeRateLimitWait(2_500, Date.UTC(2026, 10, 18, 12, 0, 30));
    tick(59_000);
    mode.noticeRateLimitWait(1_000, 0);
    tick(1_000);
    mode.noticeRateLimitWait(1_000, 0);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatch(
      /^waiting: the service is rate-limiting \(HTTP 429\); next try in 3s, giving up at \d\d:\d\d:30 \(--rate-limit-wait 30\)$/,
    );
  });

  it('lets requests already sent be answered for the grace period after a first Ctrl-C in a job, then cuts them', async () => {
    const { mode, sleep, notes, ctrlC } = jobMode();
    let signal: AbortSignal | undefined;
    let finish!: () => void;
    const running = mode.run(
      () => new Promise<void>((resolve) => ((signal = anyOf(mode.requestSignals())), (finish = resolve))),
      () => undefined,
    );
    ctrlC();
    expect(notes[0]).toMatch(/^stopping: nothing new is sent; waiting up to 30s/);
    expect(signal!.aborted).toBe(false);
    await sleep.waitingFor(interruptGraceMs);
    sleep.elapse(interruptGraceMs);
    await new Promise((resolve) => setImmediate(resolve));
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBeInstanceOf(Interrupted);
    finish();
    await running;
  });

  it('cuts at once on a second Ctrl-C, and a Ctrl-C outside a job reaches requests directly', async () => {
    const inJob = jobMode();
    let signal: AbortSignal | undefined;
    const running = inJob.mode.run(
      async () => {
        signal = anyOf(inJob.mode.requestSignals());
        inJob.ctrlC();
        inJob.again();
      },
      () => undefined,
    );
    await running;
    expect(signal!.aborted).toBe(true);
    const outside = jobMode();
    const plain = anyOf(outside.mode.requestSignals());
    outside.ctrlC();
    expect(plain.aborted).toBe(true);
    expect(outside.notes).toEqual([]);
  });

  it('says nothing on Ctrl-C when no request is under way', async () => {
    const { mode, notes, ctrlC } = jobMode({ inFlight: false });
    await mode.run(
      async () => ctrlC(),
      () => undefined,
    );
    expect(notes).toEqual([]);
  });
});
