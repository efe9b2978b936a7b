// Tables never exceed the terminal: every verb, run with its sample arguments against the sandbox on a terminal 60, 80
// and 120 columns wide, prints no line wider than the terminal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { everyVerb, flagsOf, required } from '../helpers/verbs.js';
import { cellWidth as displayWidth } from '../../src/cli/render/fit.js';

const verbs = await everyVerb();
const serving = new Set(['sandbox start', 'webhooks listen']);
/** Output that is data or text, not a table: a shell script, CSV and NDJSON exports, a checklist of sentences. */
const notTables = new Set(['completion', 'dnc export', 'sandbox export', 'doctor']);

describe('tables fit the terminal', () => {
  let sb: TestSandbox;
  /** Command lines with ids only a run can give: an enrichment's request. */
  const realLines: string[][] = [];
  beforeAll(async () => {
    sb = await startTestSandbox();
    const people = JSON.parse((await run(['people', 'search', '--limit', '2', '--json'], { env: sb.env })).stdout);
    const lead = ['--lead-id', String(people[0].id), '--yes', '--json'];
    const started = JSON.parse((await run(['enrich', 'contacts', ...lead], { env: sb.env })).stdout);
    realLines.push(
      ['enrich', 'status', started.requestIds[0]],
      ['dnc', 'search', 'example'],
      ['dnc', 'show', 'dncCustmr2'],
    );
  });
  afterAll(() => sb.close());

  it.each([60, 80, 120])('at %i columns, for every verb', async (columns) => {
    const wide: string[] = [];
    let tables = 0;
    for (const { path, verb } of verbs) {
      const name = path.join(' ');
      if (serving.has(name) || notTables.has(name)) continue;
      const yes = flagsOf(verb).some(([key]) => key === 'yes') ? ['--dry-run'] : [];
      if (yes.length && !flagsOf(verb).some(([key]) => key === 'dryRun')) continue; // acts for real: not a listing
      const result = await run([...path, ...required(verb), ...yes], {
        env: { ...sb.env, CI: 'true' },
        configDir: tempDir(),
        cwd: tempDir(),
        stdoutIsTTY: true,
        columns,
      });
      if (result.code !== 0) continue;
      const lines = stripVTControlCharacters(result.stdout).split('\n');
      if (lines.some((line) => line.includes('──') || /^\S+ {2,}\S/.test(line))) tables++;
      for (const line of lines)
        if (displayWidth(line) > columns) wide.push(`${name}: ${displayWidth(line)} > ${columns}: ${line}`);
    }
    for (const line of realLines) {
      const result = await run(line, { env: sb.env, stdoutIsTTY: true, columns });
      expect({ line, code: result.code }).toEqual({ line, code: 0 });
      for (const text of stripVTControlCharacters(result.stdout).split('\n'))
        if (displayWidth(text) > columns) wide.push(`${line.join(' ')}: ${displayWidth(text)} > ${columns}: ${text}`);
    }
    expect(wide).toEqual([]);
    expect(tables).toBeGreaterThan(8);
  });
});
