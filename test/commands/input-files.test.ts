// Input files checked before anything is sent: a folder, a missing file, an empty file or a line that cannot be an id
// is exit 2 with the path (and line) and the problem in words; the service sees nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run, usageHint } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-inputs-');
  mkdirSync(join(dir, 'folder.csv'));
  writeFileSync(join(dir, 'empty.csv'), '');
  writeFileSync(join(dir, 'empty.txt'), '\n\n');
  writeFileSync(join(dir, 'ids.txt'), 'tk000003\nhello world\ntk000004\n');
});
afterEach(() => sb.close());

const cli = (argv: string[], stdin?: string) => run(argv, { env: sb.env, cwd: dir, stdin });
const writes = () => sb.sandbox.requestLog.filter((r) => r.method !== 'GET').length;

describe('input files', () => {
  it.each([
    [['prospects', 'import', 'folder.csv'], 'error: folder.csv: is a folder or a device, not a file\n' + usageHint],
    [['prospects', 'import', 'nope.csv'], 'error: nope.csv: no such file\n' + usageHint],
    [
      ['dnc', 'add', 'dncGlobal1', '--file', 'folder.csv'],
      'error: --file: folder.csv: is a folder or a device, not a file\n' + usageHint,
    ],
    [['dnc', 'add', 'dncGlobal1', '--file', 'nope.csv'], 'error: --file: nope.csv: no such file\n' + usageHint],
    [['tasks', 'bulk-skip', '--file', 'nope.txt', '--yes'], 'error: --file: nope.txt: no such file\n' + usageHint],
    [
      ['sequences', 'add-contacts', 'sqOnbrd1', '--step', 'x', '--file', 'folder.csv'],
      'error: --file: folder.csv: is a folder or a device, not a file\n' + usageHint,
    ],
  ])('%j exits 2 naming the file', async (argv, stderr) => {
    const result = await cli(argv);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr });
    expect(writes()).toBe(0);
  });

  it('says a JSON file that does not parse in the same words whichever option reads it', async () => {
    writeFileSync(join(dir, 'bad.json'), '{"name": ');
    writeFileSync(join(dir, 'people.csv'), 'Email\nada@x.example\n');
    const cases: Array<[string[], string]> = [
      [['schedules', 'create', '--file', 'bad.json'], '--file: bad.json'],
      [['api', 'POST', '/v1/schedules', '--file', 'bad.json'], '--file: bad.json'],
      [['people', 'search', '--filters', 'bad.json'], '--filters: bad.json'],
      [['prospects', 'import', 'people.csv', '--mapping', 'bad.json'], '--mapping: bad.json'],
      [['webhooks', 'create', '--file', 'bad.json'], 'bad.json'],
      [['domains', 'buy', '--file', 'bad.json', '--dry-run'], 'bad.json'],
    ];
    for (const [argv, where] of cases) {
      const result = await cli(argv);
      expect({ argv, code: result.code, stderr: result.stderr.split('\n')[0] }).toEqual({
        argv,
        code: 2,
        stderr: `error: ${where}: is not JSON: ${errorOfJsonParse('{"name": ')}`,
      });
    }
    expect(writes()).toBe(0);
  });

  it('refuses empty inputs with exit 2 instead of succeeding at nothing', async () => {
    const dncEmpty = await cli(['dnc', 'add', 'dncGlobal1', '--file', 'empty.csv']);
    expect({ code: dncEmpty.code, stderr: dncEmpty.stderr }).toEqual({
      code: 2,
      stderr: 'error: --file: empty.csv: no values in it\n' + usageHint,
    });
    const skipEmpty = await cli(['tasks', 'bulk-skip', '--file', 'empty.txt', '--yes']);
    expect({ code: skipEmpty.code, stderr: skipEmpty.stderr }).toEqual({
      code: 2,
      stderr: 'error: --file: empty.txt: no task ids in it\nhint: Give one task id per line.\n',
    });
    const stdinEmpty = await cli(['tasks', 'bulk-skip', '-', '--yes'], '');
    expect(stdinEmpty.code).toBe(2);
    expect(stdinEmpty.stderr.split('\n')[0]).toBe('error: stdin: no task ids in it');
    expect(writes()).toBe(0);
  });

  it('takes a header line (id, taskId, tasks list --csv) for what it is, not a task id', async () => {
    writeFileSync(join(dir, 'with-header.txt'), 'taskId\ntk000003\n');
    const fromFile = await cli(['tasks', 'bulk-skip', '--file', 'with-header.txt', '--dry-run']);
    expect(fromFile.stdout).toBe('tk000003\n');
    const fromCsv = await cli(['tasks', 'bulk-skip', '-', '--dry-run'], 'ID,TYPE,STATUS\ntk000004,call,overdue\n');
    expect(fromCsv.stdout).toBe('tk000004\n');
  });

  it('rejects a line that cannot be an id, by line number, before sending anything', async () => {
    const result = await cli(['tasks', 'bulk-skip', '--file', 'ids.txt', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --file: ids.txt, line 2: "hello world" is not an id\n' +
        'hint: Give one id per line (or a CSV with a taskId column); ids are letters, digits, "-" and "_".\n',
    );
    expect(writes()).toBe(0);
  });
});

describe('- as a file name', () => {
  it('reads stdin for every option that reads a file', async () => {
    const skip = await cli(['tasks', 'bulk-skip', '--file', '-', '--yes', '--json'], 'tk000003\ntk000004\n');
    expect(skip.code).toBe(0);
    expect(JSON.parse(skip.stdout)).toMatchObject({ total: 2, skipped: 2 });

    const dnc = await cli(['dnc', 'add', 'dncGlobal1', '--file', '-', '--json'], 'value\nstdin-one@x.example\n');
    expect(dnc.code).toBe(0);
    expect(JSON.parse(dnc.stdout)).toMatchObject({ read: 1, valid: 1, sent: 1 });

    const filters = await cli(
      ['people', 'search', '--filters', '-', '--dry-run'],
      '{"job_title":{"includes":["CTO"]}}',
    );
    expect(filters.code).toBe(0);
    expect(JSON.parse(filters.stdout)).toMatchObject({ job_title: { includes: ['CTO'] } });

    const body = await cli(
      ['api', 'POST', '/v1/dnc', '--file', '-'],
      '{"dncListId":"dncGlobal1","items":["in@x.example"]}',
    );
    expect(body.code).toBe(0);
  });

  it('writes stdout for every option that writes a file', async () => {
    const nights = ['schedules', 'create', '--name', 'Nights', '--timezone', 'UTC', '--day', 'mon=20:00-23:00'];
    const saved = await cli([...nights, '--save', '-']);
    expect(saved.code).toBe(0);
    // The body first (what --save writes), then the created schedule.
    expect(saved.stdout.indexOf('"name": "Nights"')).toBe(saved.stdout.indexOf('"name"'));
    // With --json, stdout would hold two documents: refused before anything is sent.
    const twice = await cli([...nights, '--save', '-', '--json']);
    expect(twice.code).toBe(2);
    expect(twice.stderr.split('\n')[0]).toBe(
      'error: --save - and the machine output both go to stdout; give --save a file',
    );
  });

  it('takes stdin once: the rows of an import and its mapping cannot both come from it', async () => {
    const result = await cli(['prospects', 'import', '-', '--mapping', '-', '--no-wait'], 'Email\na@x.example\n');
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: --mapping -: stdin already holds the rows; give the mapping as a file\n' + usageHint,
    });
    const twice = await cli(['tasks', 'bulk-skip', '-', '--file', '-', '--yes'], 'tk000003\n');
    expect(twice.stderr).toBe('error: give - (stdin) once: as an argument or as --file -\n' + usageHint);
    expect(writes()).toBe(0);
  });
});

/** What JSON.parse says of `text`: the words of the message after "is not JSON: ". */
function errorOfJsonParse(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} parses`);
}
