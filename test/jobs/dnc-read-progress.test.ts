// What the DNC read reports while it reads (the first thing an import shows, on a spinner or as an MCP job's
// progress): a running count of the values read against the lists' sizes, every thousand values and at the end of
// each list; a list taken from its copy of an earlier run reports nothing (it takes no time). And what it leaves
// behind: a read of a hundred thousand values or more from the service has its garbage collected before the import
// after it starts.
import { getHeapStatistics } from 'node:v8';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readDncLists } from '../../src/jobs/dnc-lists.js';
import { addDncItems } from '../../src/api/resources/dnc.js';
import { collectGarbage } from '../../src/collect-garbage.js';
import type { JobContext } from '../../src/jobs/context.js';
import type { JobEvent } from '../../src/jobs/events.js';
import { testHttpClient } from '../helpers/http-client.js';
import { tempDir, testTime } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const collections = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/collect-garbage.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/collect-garbage.js')>();
  return { collectGarbage: () => (collections.count++, real.collectGarbage()) };
});

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

function jobContext(configDir: string, events: JobEvent[]): JobContext {
  const http = testHttpClient(sb.baseUrl, { apiKey: sb.key });
  return {
    http: async () => http,
    clock: { now: testTime.now, sleep: async () => undefined },
    signal: new AbortController().signal,
    resumable: () => undefined,
    doneSoFar: () => undefined,
    stepWords: () => '',
    optionName: (key) => key,
    cwd: configDir,
    configDir,
    stdin: process.stdin,
    stdout: process.stdout,
    rateLimitWaitMs: () => 0,
    waitTimeoutMs: 0,
    timeoutGiven: false,
    emit: (event) => events.push(event),
  };
}

describe('reading the do-not-contact lists', () => {
  it('reports the values read so far of the sizes the listing gave, to the last; a cached list reports none', async () => {
    const configDir = tempDir('outreach-dnc-progress-');
    const events: JobEvent[] = [];
    const ctx = jobContext(configDir, events);
    const lists = await readDncLists(ctx, await ctx.http());
    const total = lists.values;
    expect(total).toBe(42); // the seed's lists
    const reports = events.map((e) => (e.type === 'progress' ? e.text : e.type));
    // The seed's lists are under a thousand values each: one report at the end of each.
    expect(reports.length).toBe(lists.lists.length);
    expect(reports.every((r) => /^Reading do-not-contact lists: \d+ of \d+ values$/.test(r))).toBe(true);
    expect(reports.at(-1)).toBe(`Reading do-not-contact lists: ${total} of ${total} values`);

    events.length = 0;
    const again = await readDncLists(ctx, await ctx.http());
    expect([again.values, events]).toEqual([total, []]);
  });
});

describe('reading a long list', () => {
  it('reports every thousand values of it, and its end', async () => {
    const configDir = tempDir('outreach-dnc-progress-long-');
    const events: JobEvent[] = [];
    const ctx = jobContext(configDir, events);
    const http = await ctx.http();
    for (let first = 0; first < 2_500; first += 500)
      await addDncItems(
        http,
        'dncGlobal1',
        Array.from({ length: 500 }, (_, i) => `person${first + i}@long.example`),
      );
    const lists = await readDncLists(ctx, http, { only: 'dncGlobal1' });
    expect(lists.values).toBeGreaterThan(2_500);
    const counts = events.map((e) => Number((e.type === 'progress' ? e.text : '').replace(/,/g, '').split(' ')[3]));
    // Pages of 100 (one shorter, which may come at any place): a report at the first page that reaches a thousand,
    // at the first that reaches a thousand more, and at the end.
    expect(counts).toHaveLength(3);
    expect(counts[0]).toBeGreaterThanOrEqual(999);
    expect(counts[0]).toBeLessThan(1_100);
    expect(counts[1]! - counts[0]!).toBeGreaterThanOrEqual(1_000);
    expect(counts[1]! - counts[0]!).toBeLessThan(1_100);
    expect(counts[2]).toBe(lists.values);
  });
});

describe("the read's garbage", () => {
  it('is collected after 100,000 values read from the service, not after fewer, nor after a cached copy', async () => {
    const configDir = tempDir('outreach-dnc-garbage-');
    const ctx = jobContext(configDir, []);
    collections.count = 0;
    await readDncLists(ctx, await ctx.http());
    expect(collections.count).toBe(0); // the seed's 42 values

    for (let first = 0; first < 100_000; first += 5_000) {
      const items = Array.from({ length: 5_000 }, (_, i) => `p${first + i}@bulk.example`);
      expect((await sb.request('POST', '/v1/dnc', { dncListId: 'dncGlobal1', items })).status).toBe(201);
    }
    const lists = await readDncLists(ctx, await ctx.http());
    expect([lists.values, collections.count]).toEqual([100_042, 1]);
    await readDncLists(ctx, await ctx.http()); // from the copies the read kept
    expect(collections.count).toBe(1);
  });

  it('collectGarbage gives back what is no longer reachable', async () => {
    let held: Array<{ n: number; text: string }> | undefined = Array.from({ length: 300_000 }, (_, n) => ({
      n,
      text: `value ${n}`,
    }));
    const before = getHeapStatistics().used_heap_size;
    expect(held).toHaveLength(300_000);
    held = undefined;
    await collectGarbage();
    expect(before - getHeapStatistics().used_heap_size).toBeGreaterThan(10 * 2 ** 20);
  });
});
