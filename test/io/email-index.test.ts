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

describe('estimateRows', () => {
  it('counts records, not lines: a line break inside quotes does not end a record', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/context.js');
    const { estimateRows } = await import('../../src/io/import/estimate-rows.js');
    const path = join(tempDir('outreach-estimate-'), 'notes.csv');
    const record = (i: number) => `P${i},p${i}@x.example,"Too many tools,\nnot enough ""time"""\n`;
    writeFileSync(path, `Name,Email,Notes\n${Array.from({ length: 3000 }, (_, i) => record(i % 10)).join('')}`);
    // 3,000 records on 6,001 lines: the estimate is the record count, within the header's share.
    expect(estimateRows(path)).toBeGreaterThanOrEqual(3000);
    expect(estimateRows(path)).toBeLessThanOrEqual(3010);
    // A stray quote early on would make the rest of the sample one record: lines are counted instead.
    writeFileSync(path, `Name,Email,Notes\nTV,tv@x.example,5" screen\n${'P,p@x.example,plain\n'.repeat(3000)}`);
    expect(estimateRows(path)).toBeGreaterThanOrEqual(3000);
    expect(estimateRows(path)).toBeLessThanOrEqual(3010);
  });
});
