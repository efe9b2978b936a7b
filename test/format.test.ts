import { describe, expect, it } from 'vitest';
import { formatCount } from '../src/format.js';

describe('formatCount', () => {
  it('groups whole numbers exactly as en-US does', () => {
    const values = [
      0,
      7,
      999,
      1000,
      12_345,
      100_000,
      1_000_000,
      987_654_321,
      Number.MAX_SAFE_INTEGER,
      -1,
      -1234,
      -1_000_000,
    ];
    for (const n of values) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
  });

  it('leaves fractions and non-finite numbers to the locale', () => {
    expect(formatCount(1234.5678)).toBe('1,234.568');
    expect(formatCount(Infinity)).toBe('∞');
  });
});
