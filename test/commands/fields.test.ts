// fields list / update through the real CLI against the in-process sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { debugHint, parse, run, usageHint } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
beforeAll(async () => (sb = await startTestSandbox()));
afterAll(() => sb.close());

describe('outreach fields', () => {
  it('lists custom fields as id, label, type', async () => {
    const result = await run(['fields', 'list'], { env: sb.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'cSeats00\tSeats\tnumber\ncRenewal\tRenewal Date\tdate\ncPainPnt\tPain Point\tlong-text\ncIcebrkr\tIcebreaker\ttext\ncPlanTir\tPlan Tier\tdropdown\n',
    );
  });

  it('adds system fields with --system', async () => {
    const result = await run(['fields', 'list', '--system', '--csv'], { env: sb.env });
    expect(result.stdout.split('\n').slice(0, 2)).toEqual(['id,label,type', 'fEmail,Email,text']);
  });

  it('parses update flags: tags split on commas', async () => {
    const parsed = await parse(['fields', 'update', 'cPainPnt', '--tags', 'a, b,,c', '--label', 'Pain']);
    expect(parsed.options).toEqual({ args: ['cPainPnt'], tags: ['a', 'b', 'c'], label: 'Pain', clearTags: false });
  });

  it('updates label, fallback text and tags, and the sandbox holds them', async () => {
    const result = await run(
      ['fields', 'update', 'cPainPnt', '--label', 'Main pain', '--fallback-text', 'your team', '--tags', 'q3,Pricing'],
      { env: sb.env },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Updated field cPainPnt: Field updated successfully.\n');
    expect(state(sb).fields.find((f) => f.id === 'cPainPnt')).toMatchObject({
      label: 'Main pain',
      fallbackText: 'your team',
      tags: ['Q3', 'Pricing'],
    });
    expect((await run(['fields', 'update', 'cPainPnt', '--clear-tags'], { env: sb.env })).code).toBe(0);
    expect(state(sb).fields.find((f) => f.id === 'cPainPnt')!.tags).toEqual([]);
  });

  it('needs something to change, and refuses --tags with --clear-tags, before sending', async () => {
    const before = sb.sandbox.requestLog.length;
    const nothing = await run(['fields', 'update', 'cSeats00'], { env: sb.env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe(
      'error: nothing to change: give --label, --fallback-text, --tags or --clear-tags\n' + usageHint,
    );
    const both = await run(['fields', 'update', 'cSeats00', '--tags', 'a', '--clear-tags'], { env: sb.env });
    expect(both.code).toBe(2);
    expect(sb.sandbox.requestLog.length).toBe(before);
  });

  it('reports the refusal to update a system field with exit 1', async () => {
    const result = await run(['fields', 'update', 'fEmail', '--label', 'Mail'], { env: sb.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: Email is a system field; only custom fields can be updated (PATCH /v1/fields/fEmail: HTTP 400, code 4000)\n' +
        debugHint,
    );
  });
});
