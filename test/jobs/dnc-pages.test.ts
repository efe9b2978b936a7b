// How the DNC read walks a list's pages (eachPage): several at once, each taken as it arrives, until the page count
// the service gave or a short page; a page count that is no number is read past in order; a failure stops the rest.
import { describe, expect, it } from 'vitest';
import { eachPage } from '../../src/jobs/dnc-lists.js';

/** A list of `total` values served 100 a page, saying `totalPages` (or what `said` says instead). */
function service(total: number, said?: (real: number) => number | undefined, failAt?: number) {
  const asked: number[] = [];
  const fetchPage = async (page: number, pageSize: number) => {
    asked.push(page);
    // Later pages answer first: a page's turn is not its place.
    await new Promise((resolve) => setImmediate(resolve));
    if (page === failAt) throw new Error(`page ${page} failed`);
    const from = (page - 1) * pageSize;
    const items = Array.from({ length: Math.max(0, Math.min(pageSize, total - from)) }, (_, i) => ({
      value: `v${from + i}@x.example`,
    }));
    const real = Math.ceil(total / pageSize);
    return { items, totalPages: said ? said(real) : real };
  };
  return { fetchPage, asked };
}

async function read(s: ReturnType<typeof service>): Promise<string[]> {
  const values: string[] = [];
  await eachPage(s.fetchPage, (items) => values.push(...items.map((i) => i.value)));
  return values;
}

describe('eachPage', () => {
  it('takes every value once, whatever order the pages come in, and asks for no page past the count', async () => {
    const s = service(1_234);
    const values = await read(s);
    expect(values).toHaveLength(1_234);
    expect(new Set(values).size).toBe(1_234);
    expect([...s.asked].sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });

  it('a page count that is no whole number is read past in order, until a short page', async () => {
    for (const said of [() => Number.NaN, () => -1, () => 0.5]) {
      const s = service(250, said);
      expect(await read(s)).toHaveLength(250);
      expect(s.asked).toEqual([1, 2, 3]);
    }
  });

  it('a count larger than the list ends at the first short page; a failure stops the rest and is thrown', async () => {
    const long = service(250, () => 1_000_000);
    expect(await read(long)).toHaveLength(250);
    expect(Math.max(...long.asked)).toBeLessThan(20); // the workers under way when page 3 came back short
    const failing = service(5_000, undefined, 5);
    await expect(read(failing)).rejects.toThrow('page 5 failed');
    expect(Math.max(...failing.asked)).toBeLessThan(20);
  });
});

describe('eachPage against a service that answers badly past the end', () => {
  it('an error on a page past a short one is no loss; a count past twice the listing is not asked for', async () => {
    const base = service(250, () => 50);
    const erring = async (page: number, pageSize: number) => {
      if (page > 3) throw new Error('400 past the end');
      return base.fetchPage(page, pageSize);
    };
    const values: string[] = [];
    await eachPage(erring, (items) => values.push(...items.map((i) => i.value)));
    expect(values).toHaveLength(250);
    // A service that ignores page= and says 2^40 pages: full pages forever, within twice what the listing said.
    let asked = 0;
    const endless = async () => {
      asked++;
      return { items: Array.from({ length: 100 }, (_, i) => ({ value: `e${i}@x.example` })), totalPages: 2 ** 40 };
    };
    await eachPage(endless, () => undefined, 1_000);
    expect(asked).toBe(2 * 10 + 10);
  });
});
