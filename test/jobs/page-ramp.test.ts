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

describe('PageRamp', () => {
  it('steps up by 8 to 32 while each step reads faster: the round trip is the wait', () => {
    // 20 ms a trip: n under way read n pages every 20 ms.
    expect(ramp(5_000, (n) => 20 / n)).toEqual([8, 16, 24, 32]);
  });

  it('takes back a step that reads no faster by 15%, and tries it again after 8 windows, then 16', () => {
    // 1 ms a page whatever is under way: windows of 250 pages. The step back is at the 4th window, the try again at
    // the 14th, the next step back at the 16th; 16 windows of rest reach past the 20th.
    expect(ramp(5_000, () => 1)).toEqual([8, 16, 8, 16, 8]);
    expect(ramp(10_000, () => 1)).toEqual([8, 16, 8, 16, 8, 16, 8]);
    // Faster up to 16 under way, no faster after: 24 is taken back, each time it is tried.
    expect(ramp(5_000, (n) => 20 / Math.min(n, 16))).toEqual([8, 16, 24, 16, 24, 16]);
  });

  it('reaches 32 after a pause of the machine slowed the window that judged a step', () => {
    // A service 20 ms away; the window judging 16 (pages 400 to 599) holds a pause of 2 s.
    let now = 0;
    const r = new PageRamp(() => now);
    const targets = [r.target];
    for (let page = 0; page < 5_000; page++) {
      now += 20 / r.target + (page === 500 ? 2_000 : 0);
      r.pageDone();
      if (r.target !== targets.at(-1)) targets.push(r.target);
    }
    expect(targets).toEqual([8, 16, 8, 16, 24, 32]);
  });

  it('measures a pace over 64 pages and a quarter of a second, the first window not at all', () => {
    // The first window (connections opening) is slow: it does not count, so no step follows from it.
    let now = 0;
    const r = new PageRamp(() => now);
    const page = (ms: number) => {
      now += ms;
      r.pageDone();
    };
    for (let i = 0; i < 64; i++) page(i < 32 ? 50 : 1);
    expect(r.target).toBe(8);
    // A window of 64 pages in 64 ms is not over until 250 ms have passed.
    for (let i = 0; i < 249; i++) page(1);
    expect(r.target).toBe(8);
    page(1);
    expect(r.target).toBe(16);
  });
});

describe('eachPage with a clock', () => {
  /** 3,000 pages served in any order (page `failAt` failing); `tripMs(underWay)` of the clock passes as each page
   * comes. Nothing may be under way, nor asked, once the read has returned or thrown. */
  async function read(tripMs: (underWay: number) => number, failAt?: number) {
    let now = 0;
    let underWay = 0;
    let most = 0;
    let mostLate = 0; // past the 2,000th page asked for
    const asked: number[] = [];
    const fetchPage = async (page: number, pageSize: number) => {
      asked.push(page);
      most = Math.max(most, ++underWay);
      if (asked.length > 2_000) mostLate = Math.max(mostLate, underWay);
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
    // The step to 16 is tried, then taken back.
    expect(await read(() => 1)).toEqual({ most: 16, mostLate: 8, values: 300_000, asked: 3_000 });
  });
});
