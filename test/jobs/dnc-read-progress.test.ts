// What the DNC read reports while it reads (the first thing an import shows, on a spinner or as an MCP job's
// progress): a running count of the values read against the lists' sizes, one report a page; a list taken from its
// copy of an earlier run reports nothing (it takes no time).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readDncLists } from '../../src/jobs/dnc-lists.js';
import type { JobContext } from '../../src/jobs/context.js';
import type { JobEvent } from '../../src/jobs/events.js';
import { testHttpClient } from '../helpers/http-client.js';
import { tempDir, testTime } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

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
  it('reports the values read so far of the sizes the listing gave, a page at a time; a cached list reports none', async () => {
    const configDir = tempDir('outreach-dnc-progress-');
    const events: JobEvent[] = [];
    const ctx = jobContext(configDir, events);
    const lists = await readDncLists(ctx, await ctx.http());
    const total = lists.values;
    expect(total).toBe(42); // the seed's lists
    const reports = events.map((e) => (e.type === 'progress' ? e.text : e.type));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((r) => /^Reading do-not-contact lists: \d+ of \d+ values$/.test(r))).toBe(true);
    expect(reports.at(-1)).toBe(`Reading do-not-contact lists: ${total} of ${total} values`);

    events.length = 0;
    const again = await readDncLists(ctx, await ctx.http());
    expect([again.values, events]).toEqual([total, []]);
  });
});
