// The tables of the list commands as a terminal of 80 and of 120 columns shows them, against files a reviewer reads
// (test/golden/). A change to a table shows in the diff of its file; UPDATE_GOLDEN=1 npm test writes them anew.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellLine } from '../../src/cli/context/command-lines.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const goldenDir = join(import.meta.dirname, '..', 'golden');
const update = process.env.UPDATE_GOLDEN === '1';

let sb: TestSandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());

const lists: Array<[string, string[]]> = [
  ['tasks-list', ['tasks', 'list']],
  ['tasks-list-completed', ['tasks', 'list', '--status', 'completed', '--page-size', '8']],
  ['dnc-lists', ['dnc', 'lists']],
  ['dnc-show', ['dnc', 'show', 'dncGlobal1']],
  ['fields-list', ['fields', 'list', '--system']],
  ['inbox-categories', ['inbox', 'categories']],
  ['schedules-list', ['schedules', 'list']],
  ['domains-list', ['domains', 'list']],
  ['people-search', ['people', 'search', '--title', 'Head of Sales']],
  ['enrich-rate-limits', ['enrich', 'rate-limits']],
];

describe.each([80, 120])('list tables at %i columns', (columns) => {
  it.each(lists)('%s', async (name, argv) => {
    const result = await run(argv, { env: { ...sb.env, NO_COLOR: '1' }, stdoutIsTTY: true, columns });
    expect(result.code).toBe(0);
    const shown = `$ outreach ${shellLine(argv)}\n${result.stdout}`;
    const file = join(goldenDir, `${name}.${columns}.txt`);
    if (update) writeFileSync(file, shown);
    expect(shown).toBe(readFileSync(file, 'utf8'));
    // Nothing wider than the terminal.
    for (const line of result.stdout.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(columns);
  });
});
