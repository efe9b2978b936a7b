import { afterEach, describe, expect, it, vi } from 'vitest';
import { RequestWatches } from '../../src/api/request-watch.js';

const watchRequest = (parents: AbortSignal[], timeoutMs: number, watches = new RequestWatches()) =>
  watches.watch(parents, timeoutMs);

afterEach(() => {
  vi.useRealTimers();
});

describe('watchRequest', () => {
  it('cancels the request when a command signal aborts, not as a timeout', () => {
    const command = new AbortController();
    const watch = watchRequest([command.signal], 60_000);
    const cancelled = vi.fn();
    watch.onCancel(cancelled);
    expect(watch.aborted).toBe(false);
    command.abort();
    expect(cancelled).toHaveBeenCalledTimes(1);
    expect(watch.aborted).toBe(true);
    expect(watch.timedOut()).toBe(false);
    watch.dispose();
  });

  it('cancels at its deadline and says so', () => {
    vi.useFakeTimers();
    const watch = watchRequest([new AbortController().signal], 5_000);
    const cancelled = vi.fn();
    watch.onCancel(cancelled);
    vi.advanceTimersByTime(4_999);
    expect(cancelled).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(cancelled).toHaveBeenCalledTimes(1);
    expect(watch.timedOut()).toBe(true);
  });

  it('is cancelled at once when a signal already aborted', () => {
    const command = new AbortController();
    command.abort();
    const watch = watchRequest([command.signal], 60_000);
    const cancelled = vi.fn();
    watch.onCancel(cancelled);
    expect(cancelled).toHaveBeenCalledTimes(1);
    watch.dispose();
  });

  it('once disposed, neither the signal nor the deadline reaches it, and other requests still hear the signal', () => {
    vi.useFakeTimers();
    const command = new AbortController();
    const ended = watchRequest([command.signal], 5_000);
    const endedCancel = vi.fn();
    ended.onCancel(endedCancel);
    ended.dispose();
    const running = watchRequest([command.signal], 5_000);
    const runningCancel = vi.fn();
    running.onCancel(runningCancel);
    command.abort();
    vi.advanceTimersByTime(10_000);
    expect(endedCancel).not.toHaveBeenCalled();
    expect(runningCancel).toHaveBeenCalledTimes(1);
    expect(running.timedOut()).toBe(false);
  });

  it('adds one listener to a command signal however many requests it watches, and leaves no timer behind', () => {
    vi.useFakeTimers();
    const command = new AbortController();
    const added = vi.spyOn(command.signal, 'addEventListener');
    const watches = new RequestWatches();
    for (let i = 0; i < 100; i++) watchRequest([command.signal], 60_000, watches).dispose();
    expect(added).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('times each request out at its own deadline, whatever order they came in', () => {
    vi.useFakeTimers();
    const watches = new RequestWatches();
    const signal = new AbortController().signal;
    const long = watchRequest([signal], 10_000, watches);
    const short = watchRequest([signal], 2_000, watches);
    const ended = watchRequest([signal], 1_000, watches);
    ended.dispose();
    vi.advanceTimersByTime(2_000);
    expect([short.timedOut(), long.timedOut()]).toEqual([true, false]);
    vi.advanceTimersByTime(7_999);
    expect(long.timedOut()).toBe(false);
    vi.advanceTimersByTime(1);
    expect([long.timedOut(), ended.timedOut()]).toEqual([true, false]);
  });
});
