// One CLI, one vocabulary (issue 30, in part): one output format a run, --json on the commands that printed nothing
// under it, and a did-you-mean wherever a value comes from a fixed set.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());
const cli = (argv: string[]) => run(argv, { env: sb.env });

describe('output formats', () => {
  it.each([
    [['--json', '--csv'], '--json and --csv'],
    [['--ndjson', '--csv'], '--ndjson and --csv'],
    [['--json', '--ndjson'], '--json and --ndjson'],
  ])('%j is refused: one format a run (exit 2, nothing sent)', async (flags, named) => {
    const before = sb.sandbox.requestLog.length;
    const result = await cli([...flags, 'tasks', 'list']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(
      `error: ${named} cannot be used together: choose one output format\n` +
        'hint: Give one of --json (or --jq), --ndjson and --csv.\n',
    );
    expect(sb.sandbox.requestLog.length).toBe(before);
  });

  it('--jq with --json is one format', async () => {
    expect((await cli(['--json', '--jq', '.[0].key', 'inbox', 'categories'])).stdout).toBe('uncategorized\n');
  });

  it('fields update and subsequence update print the answer as the service sent it under --json', async () => {
    const field = await cli(['fields', 'update', 'cPainPnt', '--label', 'Pain', '--json']);
    expect(JSON.parse(field.stdout)).toMatchObject({ message: expect.any(String) });
    const subsequence = await cli([
      'sequences',
      'subsequence',
      'update',
      'sqOnbrd1',
      'ssReplied',
      '--delay-days',
      '5',
      '--json',
    ]);
    expect(JSON.parse(subsequence.stdout)).toMatchObject({ message: expect.any(String) });
  });

  it('dnc export --json lists the items as objects with the CSV header as keys', async () => {
    const items = JSON.parse((await cli(['dnc', 'export', 'dncGlobal1', '--json'])).stdout);
    expect(items.length).toBeGreaterThan(0);
    expect(Object.keys(items[0])).toEqual(['value', 'type', 'createdAt', 'addedBy']);
    const lines = (await cli(['dnc', 'export', 'dncGlobal1', '--ndjson'])).stdout.trim().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual(items);
  });
});

describe('did you mean', () => {
  it.each([
    [['tasks', 'complete', 'tk000001', '--outcome', 'voicemail'], '; did you mean Left Voicemail?'],
    [['webhooks', 'trigger', 'reply-recieved'], '; did you mean reply-received?'],
    [['dnc', 'export', 'dncGlobal1', '--type', 'emial'], '; did you mean email?'],
  ])('%j suggests the value meant', async (argv, suggestion) => {
    const result = await cli(argv);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(new RegExp(`${suggestion.replace(/[?.]/g, '\\$&')}$`));
  });
});

describe('accepted nonsense is refused', () => {
  it('a schedule without a single sending window (exit 2, nothing created)', async () => {
    const before = sb.sandbox.requestLog.length;
    const result = await cli(['schedules', 'create', '--name', 'Never', '--timezone', 'UTC']);
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(
      'error: the schedule has no sending window: give at least one day, e.g. --day mon=09:00-17:00',
    );
    expect(sb.sandbox.requestLog.length).toBe(before);
  });

  it('a condition whose operation is not one the service documents, with the nearest', async () => {
    const condition = (text: string) =>
      cli(['sequences', 'subsequence', 'update', 'sqOnbrd1', 'ssReplied', '--condition', text]);
    const result = await condition('Replied:iz:true');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --condition "Replied:iz:true": the operation must be one of is, greater than, is any, not "iz"; did you mean is?\n' +
        'hint: Others are not documented; `outreach api PATCH ...` sends any body as it is.\n',
    );
    // Any case and spacing of a documented one is taken.
    expect((await condition('Email Open Count:Greater  Than:3')).code).toBe(0);
  });
});

describe('order files', () => {
  it('a file that leaves out a field is told what is missing in words, not in the validator words', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/context.js');
    const dir = tempDir();
    writeFileSync(join(dir, 'wh.yaml'), 'name: dev\nurl: https://example.com/hook\nwebhookEvent: [reply-received]\n');
    const result = await run(['webhooks', 'create', '--file', 'wh.yaml'], { env: sb.env, cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: wh.yaml: is not a webhook: body.webhookUrl: required (text)');
  });
});
