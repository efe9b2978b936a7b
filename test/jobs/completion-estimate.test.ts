// bulk-skip asks for a batch's status when it expects the batch to be done, learning that moment batch by batch.
import { describe, expect, it } from 'vitest';
import { CompletionEstimate } from '../../src/jobs/bulk-action.js';

/** Checks a batch that completes `trueMs` after it was sent the way runBatch does: first at the estimate, then again
 * after the estimate's retry waits until done. Gives the check times that found it pending and done. */
function checkBatch(estimate: CompletionEstimate, trueMs: number) {
  let at = estimate.firstCheckMs();
  let pending: number | undefined;
  const { initialMs, growth } = estimate.retries();
  for (let wait = initialMs; at < trueMs; wait = Math.round(wait * growth)) {
    pending = at;
    at += wait;
  }
  estimate.learn(pending, at);
  return { pending, done: at };
}

describe('CompletionEstimate', () => {
  it('first checks at 250 ms, then narrows to within 10 ms after the moment batches complete', () => {
    const estimate = new CompletionEstimate();
    expect(estimate.firstCheckMs()).toBe(250);
    const lateness = Array.from({ length: 12 }, () => checkBatch(estimate, 800).done - 800);
    expect(lateness.slice(-4).every((ms) => ms >= 0 && ms <= 10)).toBe(true);
    expect(lateness.slice(0, 3).some((ms) => ms > 10)).toBe(true);
  });

  it('widens again when batches start taking longer', () => {
    const estimate = new CompletionEstimate();
    for (let i = 0; i < 12; i++) checkBatch(estimate, 500);
    const lateness = Array.from({ length: 12 }, () => checkBatch(estimate, 900).done - 900);
    expect(lateness.slice(-3).every((ms) => ms >= 0 && ms <= 10)).toBe(true);
  });

  it('lets one late batch move the estimate only just past its last pending check, then narrows back', () => {
    const estimate = new CompletionEstimate();
    for (let i = 0; i < 12; i++) checkBatch(estimate, 800);
    const late = checkBatch(estimate, 860);
    expect(estimate.firstCheckMs()).toBeLessThanOrEqual(late.pending! + 20);
    const lateness = Array.from({ length: 8 }, () => checkBatch(estimate, 800).done - 800);
    expect(lateness.slice(-3).every((ms) => ms >= 0 && ms <= 10)).toBe(true);
  });
});
