// How many DNC pages are under way at once: more while more reads faster (a service far away), back to what paid
// when a step does not (a service or client that is the slower side), on a clock the test turns.
import { describe, expect, it } from 'vitest';
import { PageRamp } from '../../src/jobs/page-ramp.js';
import { eachPage } from '../../src/jobs/dnc-lists.js';

/** The targets a ramp goes through over `pages` pages, each taking `msPerPage(target)` of the test's clock. */
function ramp(pages: number, msPerPage: (target: number) => number): number[] {
  let now = 0;
  const r = new PageRamp(() => now);
  const targets = [r.target];
  for (let i = 0; i < pages; i++) {
    now += msPerPage(r.target);
    r.pageDone();
    if (r.target !== targets.at(-1)) targets.push(r.target);
  }
  return targets;
}

/** A ramp on a clock the test turns: `pages(n, ms)` has n pages come, each `ms` after the one before. */
function turned() {
  let now = 0;
  const r = new PageRamp(() => now);
  const pages = (count: number, ms: number) => {
    for (let i = 0; i < count; i++) {
      now += ms;
      r.pageDone();
    }
  };
  return { r, pages };
}

describe('PageRamp', () => {
  it('doubles to 32 while each step reads faster: the round trip is the wait', () => {
    // 20 ms a trip: n under way read n pages every 20 ms.
    expect(ramp(5_000, (n) => 20 / n)).toEqual([8, 16, 32]);
  });

  it('reaches 32 under way 0.54 s into a read 20 ms a trip away: before a window, one round of pages, not a window', () => {
    let now = 0;
    const r = new PageRamp(() => now);
    while (r.target < 32) {
      now += 20 / r.target;
      r.pageDone();
    }
    // 8 pages (the first round, not measured), a window at 8 (250 ms), 16 pages at 16, a window at 16 (250 ms).
    expect(Math.round(now)).toBe(540);
  });

  it('takes back a step that reads no faster by 15%, and tries it again after 8 windows, then 16', () => {
    // 1 ms a page whatever is under way: windows of 250 pages. The step to 16 comes at page 258 (8 pages to settle, a
    // window) and is taken back at 524 (16 pages to settle, a window); tried again after 8 windows of rest (at 2,790),
    // taken back at 3,056; 16 windows of rest reach past page 5,000.
    expect(ramp(5_000, () => 1)).toEqual([8, 16, 8, 16, 8]);
    expect(ramp(10_000, () => 1)).toEqual([8, 16, 8, 16, 8, 16, 8]);
    // Faster up to 16 under way, no faster after: 32 is taken back to 16, each time it is tried.
    expect(ramp(5_000, (n) => 20 / Math.min(n, 16))).toEqual([8, 16, 32, 16, 32, 16]);
  });

  it('reaches 32 after a pause of the machine slowed the window that judged a step', () => {
    // A service 20 ms away; the window judging 16 (from page 124) holds a pause of 2 s at page 150.
    let now = 0;
    const r = new PageRamp(() => now);
    const targets = [r.target];
    for (let page = 0; page < 5_000; page++) {
      now += 20 / r.target + (page === 150 ? 2_000 : 0);
      r.pageDone();
      if (r.target !== targets.at(-1)) targets.push(r.target);
    }
    expect(targets).toEqual([8, 16, 8, 16, 32]);
  });

  it('after a step down, waits for the pages of the larger count still coming before it measures', () => {
    // 16 under way and a step back to 8: the 16 pages asked before it are not the pace of 8.
    const { r, pages } = turned();
    pages(8 + 250, 1); // the first round, and a window at 8: the step to 16
    expect(r.target).toBe(16);
    pages(16 + 250, 1); // settled; a window at 16 no faster: back to 8
    expect(r.target).toBe(8);
    // 16 slow pages (the old count draining) start no window (in one, they would have ended it at its 64th page):
    // the 8 windows of rest, and the one that tries 16 again, are the 2,250 pages after them.
    pages(16, 50);
    pages(9 * 250 - 1, 1);
    expect(r.target).toBe(8);
    pages(1, 1);
    expect(r.target).toBe(16);
  });

  it('measures a pace over 64 pages and a quarter of a second, not the first round (connections opening)', () => {
    const { r, pages } = turned();
    // The first 8 pages are slow (the connections opening); the window starts after them.
    pages(8, 50);
    // A window of 64 pages in 64 ms is not over until 250 ms have passed; then a step to 16 is tried.
    pages(249, 1);
    expect(r.target).toBe(8);
    pages(1, 1);
    expect(r.target).toBe(16);
    // 16 read no faster, so the step is taken back: the slow round counted at 8 would have made 16 look faster.
    pages(16 + 250, 1);
    expect(r.target).toBe(8);
  });
});

describe('eachPage with a clock', () => {
  /** 3,000 pages served in any order (page `failAt` failing); `tripMs(underWay)` of the clock passes as each page
   * comes. Nothing may be under way, nor asked, once the read has returned or thrown. */
  async function read(tripMs: (underWay: number) => number, failAt?: number) {
    let now = 0;
    let underWay = 0;
    let most = 0;
    let mostLate = 0; // from the 1,000th page asked for to the 2,500th
    const asked: number[] = [];
    const fetchPage = async (page: number, pageSize: number) => {
      asked.push(page);
      most = Math.max(most, ++underWay);
      if (asked.length > 1_000 && asked.length <= 2_500) mostLate = Math.max(mostLate, underWay);
      // Some pages take longer: the last to come need not be of the first requests' workers.
      for (let tick = page % 7 === 0 ? 4 : 1; tick > 0; tick--) await new Promise((resolve) => setImmediate(resolve));
      now += tripMs(underWay);
      underWay--;
      if (page === failAt) throw new Error(`page ${page} failed`);
      return {
        items: Array.from({ length: pageSize }, (_, i) => ({ value: `v${page}-${i}@x.example` })),
        totalPages: 3_000,
      };
    };
    let values = 0;
    const ended = eachPage(
      fetchPage,
      (items) => (values += items.length),
      300_000,
      () => now,
    );
    await ended.catch(() => undefined);
    const askedThen = asked.length;
    for (let tick = 0; tick < 8; tick++) await new Promise((resolve) => setImmediate(resolve));
    expect([underWay, asked.length]).toEqual([0, askedThen]);
    await ended;
    return { most, mostLate, values, asked: new Set(asked).size === asked.length && asked.length };
  }

  it('has up to 32 pages under way when the round trip is the wait, and reads each page once', async () => {
    expect(await read((n) => 20 / n)).toEqual({ most: 32, mostLate: 32, values: 300_000, asked: 3_000 });
  });

  it('stops asking at a failed page and throws its error once every page under way has come', async () => {
    await expect(read((n) => 20 / n, 1_500)).rejects.toThrow('page 1500 failed');
  });

  it('keeps to 8 when more under way reads no faster', async () => {
    // The step to 16 is tried, then taken back (and tried again after 8 windows of rest, near the 2,800th page).
    expect(await read(() => 1)).toEqual({ most: 16, mostLate: 8, values: 300_000, asked: 3_000 });
  });
});
