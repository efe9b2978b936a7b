import { describe, expect, it } from 'vitest';
import { EmailIndex } from '../../src/io/import/email-index.js';

describe('EmailIndex', () => {
  it('remembers the first row of each email, case-insensitively, across growth', () => {
    // 60,000 emails: past 85% of the first table's 65,536 slots, so it grows once.
    const index = new EmailIndex();
    let seenBefore = 0;
    for (let i = 0; i < 60_000; i++) if (index.firstRowOf(`user${i}@x.example`, i + 2) !== undefined) seenBefore++;
    expect(seenBefore).toBe(0);
    expect(index.size).toBe(60_000);
    expect(index.firstRowOf('USER7@X.EXAMPLE', 999_999)).toBe(9);
    expect(index.lookup('user59999@x.example')).toBe(60_001);
    expect(index.lookup('nobody@x.example')).toBeUndefined();
  });

  it('works the same when sized up front', () => {
    const index = new EmailIndex(1000);
    for (let i = 0; i < 5000; i++) index.firstRowOf(`u${i}@x.example`, i + 2);
    expect(index.lookup('u4999@x.example')).toBe(5001);
    expect(index.size).toBe(5000);
  });
});
