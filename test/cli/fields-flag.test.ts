// --fields a,b on every list and get command (gh's --json a,b): JSON keeps those keys, CSV, TSV and tables those
// columns by their CSV header name; a name that is no column is exit 2 with the ones there are.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const cli = (argv: string[]) => run(argv, { env: sb.env });

describe('--fields', () => {
  it('keeps the named keys of each record in JSON and NDJSON, in the order asked', async () => {
    const json = await cli(['tasks', 'list', '--limit', '2', '--json', '--fields', 'status,taskId']);
    const tasks = JSON.parse(json.stdout) as object[];
    expect(tasks.map((t) => Object.keys(t))).toEqual([
      ['status', 'taskId'],
      ['status', 'taskId'],
    ]);
    const ndjson = await cli(['tasks', 'list', '--limit', '1', '--ndjson', '--fields', 'taskId']);
    expect(Object.keys(JSON.parse(ndjson.stdout) as object)).toEqual(['taskId']);
    const one = await cli(['tasks', 'get', 'tk000001', '--json', '--fields', 'taskId,title']);
    expect(JSON.parse(one.stdout)).toEqual({ taskId: 'tk000001', title: expect.any(String) });
  });

  it('keeps the named columns of CSV and TSV, and refuses a name that is no column', async () => {
    const csv = await cli(['tasks', 'list', '--limit', '2', '--csv', '--fields', 'status,id']);
    expect(csv.stdout.split('\n')[0]).toBe('status,id');
    const tsv = await cli(['tasks', 'list', '--limit', '1', '--fields', 'id']);
    expect(tsv.stdout).toMatch(/^tk\d+\n$/);
    const bad = await cli(['tasks', 'list', '--limit', '1', '--fields', 'taskId']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: --fields: taskId is not a column here; did you mean id?\n' +
        'hint: Its columns: id, type, status, due, title, sequence, assignee, priority. With --json, --fields names the keys of the records.\n',
    );
  });

  it('says what it cannot do instead of printing empty records', async () => {
    const list = await cli(['tasks', 'list', '--limit', '2', '--json', '--fields', 'taskId,nope']);
    expect([list.code, list.stderr]).toEqual([0, 'warning: --fields: no record has nope\n']);
    expect((JSON.parse(list.stdout) as object[]).map((t) => Object.keys(t))).toEqual([['taskId'], ['taskId']]);
    const one = await cli(['tasks', 'get', 'tk000001', '--json', '--fields', 'taskid']);
    expect([one.code, one.stderr.split('\n')[0]]).toEqual([
      2,
      'error: --fields: the record has no taskid; did you mean taskId?',
    ]);
    const empty = await cli(['tasks', 'list', '--json', '--fields', '']);
    expect([empty.code, empty.stderr.split('\n')[0]]).toEqual([2, 'error: --fields needs at least one name']);
    const jq = await cli(['tasks', 'list', '--jq', '.[].title', '--fields', 'title']);
    expect([jq.code, jq.stderr.split('\n')[0]]).toEqual([2, 'error: --fields and --jq cannot be used together']);
    const exported = await cli(['dnc', 'export', 'dncGlobal1', '--csv', '--fields', 'value']);
    expect([exported.code, exported.stderr.split('\n')[0]]).toEqual([
      2,
      'error: --fields does not apply to a CSV export',
    ]);
    // Columns are named in any case.
    const columns = await cli(['tasks', 'list', '--limit', '1', '--csv', '--fields', 'ID,Status']);
    expect(columns.stdout.split('\n')[0]).toBe('id,status');
  });
});
