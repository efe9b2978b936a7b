// Run tests for the pattern resource: exact output in every format, against the in-process sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { changeRecord } from '../helpers/sandbox-state.js';
import { inboxCategoriesTable } from '../../src/sandbox/resources/inbox/index.js';

let sb: TestSandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());

describe('outreach inbox categories', () => {
  it('prints headerless TSV when piped, with sentiment codes as names', async () => {
    const result = await run(['inbox', 'categories'], { env: sb.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('uncategorized\tUncategorized\tyes\tNeutral');
    expect(lines[1]).toBe('interested\tInterested\tyes\tPositive');
    expect(lines[2]).toBe('not_interested\tNot Interested\tyes\tNegative');
    expect(lines[8]).toBe('pricing_question\tPricing Question\tno\tPositive');
    expect(lines).toHaveLength(10);
  });

  it('draws a table on a terminal', async () => {
    const result = await run(['inbox', 'categories', '--no-color'], { env: sb.env, stdoutIsTTY: true });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^KEY +NAME +DEFAULT +SENTIMENT$/);
    expect(lines[1]).toMatch(/^uncategorized +Uncategorized +yes +Neutral$/);
  });

  it('prints the records as the service sent them with --json', async () => {
    const result = await run(['--json', 'inbox', 'categories'], { env: sb.env });
    const records = JSON.parse(result.stdout);
    expect(records[1]).toEqual({ key: 'interested', name: 'Interested', isDefault: true, sentiment: '1' });
    expect(records).toHaveLength(9);
  });

  it('prints one object a line with --ndjson and a header with --csv', async () => {
    const ndjson = await run(['inbox', 'categories', '--ndjson'], { env: sb.env });
    expect(ndjson.stdout.split('\n')[0]).toBe(
      '{"key":"uncategorized","name":"Uncategorized","isDefault":true,"sentiment":"3"}',
    );
    const csv = await run(['inbox', 'categories', '--csv'], { env: sb.env });
    expect(csv.stdout.split('\n').slice(0, 2)).toEqual([
      'key,name,default,sentiment',
      'uncategorized,Uncategorized,yes,Neutral',
    ]);
  });

  it('puts a quote before CSV cells a spreadsheet would run as formulas, unless --csv-raw', async () => {
    changeRecord(
      sb,
      inboxCategoriesTable,
      'uncategorized',
      (c) => (c.name = '=HYPERLINK("http://x.example","Click, me")'),
    );
    const csv = await run(['inbox', 'categories', '--csv'], { env: sb.env });
    expect(csv.stdout.split('\n')[1]).toBe(
      'uncategorized,"\'=HYPERLINK(""http://x.example"",""Click, me"")",yes,Neutral',
    );
    const raw = await run(['inbox', 'categories', '--csv', '--csv-raw'], { env: sb.env });
    expect(raw.stdout.split('\n')[1]).toBe(
      'uncategorized,"=HYPERLINK(""http://x.example"",""Click, me"")",yes,Neutral',
    );
    // Piped tables and JSON are data for programs: unchanged.
    const tsv = await run(['inbox', 'categories'], { env: sb.env });
    expect(tsv.stdout.split('\n')[0]).toBe('uncategorized\t=HYPERLINK("http://x.example","Click, me")\tyes\tNeutral');
    sb.sandbox.reset();
  });

  it('shows sentiment words from the real service unchanged in meaning', async () => {
    changeRecord(sb, inboxCategoriesTable, 'uncategorized', (c) => (c.sentiment = 'negative' as '2'));
    const result = await run(['inbox', 'categories'], { env: sb.env });
    expect(result.stdout.split('\n')[0]).toBe('uncategorized\tUncategorized\tyes\tNegative');
    sb.sandbox.reset();
  });
});
