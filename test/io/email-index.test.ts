import { describe, expect, it } from 'vitest';
import { EmailIndex } from '../../src/io/import/email-index.js';

describe('EmailIndex', () => {
  it('remembers the first row of each email, case-insensitively, across growth', () => {
    const index = new EmailIndex();
    for (let i = 0; i < 200_000; i++) expect(index.firstRowOf(`user${i}@x.example`, i + 2)).toBeUndefined();
    expect(index.size).toBe(200_000);
    expect(index.firstRowOf('USER7@X.EXAMPLE', 999_999)).toBe(9);
    expect(index.lookup('user199999@x.example')).toBe(200_001);
    expect(index.lookup('nobody@x.example')).toBeUndefined();
  });

  it('works the same when sized up front', () => {
    const index = new EmailIndex(1000);
    for (let i = 0; i < 5000; i++) index.firstRowOf(`u${i}@x.example`, i + 2);
    expect(index.lookup('u4999@x.example')).toBe(5001);
    expect(index.size).toBe(5000);
  });
});
