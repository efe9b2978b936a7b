import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchRequest } from '../../src/api/request-watch.js';

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

  it('adds one listener to a command signal however many requests it watches', () => {
    const command = new AbortController();
    const added = vi.spyOn(command.signal, 'addEventListener');
    for (let i = 0; i < 100; i++) watchRequest([command.signal], 60_000).dispose();
    expect(added).toHaveBeenCalledTimes(1);
  });
});
