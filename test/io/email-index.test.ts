import { describe, expect, it } from 'vitest';
import { EmailIndex } from '../../src/io/import/email-index.js';
import { canonicalDncKey } from '../../src/io/dnc-values.js';

describe('EmailIndex', () => {
  it('remembers the first row of each email (in one form, canonicalDncKey), across growth', () => {
    // 70,000 emails: past 75% of the first table's 65,536 slots, so a second table takes the rest.
    const index = new EmailIndex();
    let seenBefore = 0;
    for (let i = 0; i < 70_000; i++) if (index.firstRowOf(`user${i}@x.example`, i + 2) !== undefined) seenBefore++;
    expect(seenBefore).toBe(0);
    expect(index.size).toBe(70_000);
    expect(index.firstRowOf(canonicalDncKey('USER7@X.EXAMPLE'), 999_999)).toBe(9);
    expect(index.lookup('user69999@x.example')).toBe(70_001);
    expect(index.lookup('nobody@x.example')).toBeUndefined();
  });

  it('keeps rows past 16,777,215 whole, and the rows before them', () => {
    const index = new EmailIndex();
    for (let i = 0; i < 1000; i++) index.firstRowOf(`early${i}@x.example`, 16_777_000 + i);
    for (let i = 0; i < 70_000; i++) index.firstRowOf(`late${i}@x.example`, 20_000_000 + i);
    expect(index.lookup('early0@x.example')).toBe(16_777_000);
    expect(index.lookup('early999@x.example')).toBe(16_777_999);
    expect(index.firstRowOf('late69999@x.example', 30_000_000)).toBe(20_069_999);
    expect(index.size).toBe(71_000);
  });

  it('finds every email and no stranger across several tables', () => {
    const index = new EmailIndex();
    let seenBefore = 0;
    for (let i = 0; i < 400_000; i++)
      if (index.firstRowOf(`p${i}@c${i % 997}.example`, i + 2) !== undefined) seenBefore++;
    expect(seenBefore).toBe(0);
    let rowsWrong = 0;
    for (let i = 0; i < 400_000; i += 97)
      if (index.firstRowOf(canonicalDncKey(`P${i}@C${i % 997}.EXAMPLE`), 1) !== i + 2) rowsWrong++;
    expect(rowsWrong).toBe(0);
    let strangers = 0;
    for (let i = 400_000; i < 800_000; i++) if (index.lookup(`p${i}@c${i % 997}.example`) !== undefined) strangers++;
    expect(strangers).toBe(0);
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
