// The same mistake, the same answer: an id the service does not know is exit 2 with `error: no <thing> <id>` and a
// hint saying where ids come from, whichever command meets it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const body = join(tempDir(), 'body.html');
writeFileSync(body, '<p>Hello</p>');
const testEmail = ['sequences', 'test-email', '--to', 'me@x.example', '--subject', 'Hi', '--content-file', body];

describe('an unknown id', () => {
  it.each([
    [['tasks', 'get', 'tkNope'], 'no task tkNope'],
    [['tasks', 'complete', 'tkNope', '--outcome', 'left-voicemail'], 'no task tkNope'],
    [['tasks', 'bulk-status', 'baNope'], 'no bulk action baNope'],
    [['dnc', 'show', 'dnNope'], 'no DNC list dnNope'],
    [['webhooks', 'get', 'whNope'], 'no webhook whNope'],
    [['enrich', 'status', 'erNope'], 'no enrichment job erNope'],
    [['domains', 'delete', 'dmNope', '--yes'], 'no domain dmNope'],
    [['prospects', 'import-status', 'rqNope'], 'no import request rqNope'],
    [['fields', 'update', 'cNope', '--label', 'x'], 'no field cNope'],
    [['sequences', 'steps', 'sqOnbrd1', 'stNope'], 'no step stNope'],
    [['dnc', 'add', 'dncNope', 'a@b.example'], 'no DNC list dncNope'],
    [['domains', 'revoke', 'dmNope'], 'no domain dmNope'],
    [
      ['sequences', 'subsequence', 'update', 'sqOnbrd1', 'ssNope', '--delay-days', '3'],
      'no subsequence ssNope in sequence sqOnbrd1',
    ],
    [
      ['sequences', 'subsequence', 'update', 'sqNope', 'ssReplied', '--delay-days', '3'],
      'no subsequence ssReplied in sequence sqNope',
    ],
    [['sequences', 'add-contacts', 'sqNope', '--step', 'stA1intro', 'prAda001'], 'no sequence sqNope'],
    // A code the service gives for either id: its own words say which.
    [['sequences', 'add-contacts', 'sqOnbrd1', '--step', 'stA1intro', 'prNope'], 'Contacts not found: prNope \\(.+\\)'],
    [
      ['sequences', 'add-contacts', 'sqOnbrd1', '--step', 'stNope', 'prAda001'],
      'Step stNope is not a step of sequence sqOnbrd1 \\(.+\\)',
    ],
    [['prospects', 'attribute', 'get', '--attribute', 'atNope'], 'no attribute atNope'],
    [['prospects', 'attribute', 'set', 'prNope', '--field', 'cPainPnt=x'], 'no prospect prNope'],
    [[...testEmail, 'sqNope', '--from-account', 'ea1Alice'], 'no email account ea1Alice in sequence sqNope'],
    [[...testEmail, 'sqOnbrd1', '--from-account', 'eaNope'], 'no email account eaNope in sequence sqOnbrd1'],
  ])('%j is exit 2, named, with a hint', async (argv, message) => {
    const result = await run(argv, { env: sb.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^error: ${message}\\nhint: .+\\n$`));
  });
});

describe('an unknown profile', () => {
  it('is exit 2 whether -p or OUTREACH_PROFILE names it', async () => {
    const configDir = tempDir();
    const byFlag = await run(['-p', 'nope', 'tasks', 'list'], { configDir });
    const byEnv = await run(['tasks', 'list'], { configDir, env: { OUTREACH_PROFILE: 'nope' } });
    expect([byFlag.code, byEnv.code]).toEqual([2, 2]);
    expect(byFlag.stderr).toMatch(/^error: no profile named "nope"\nhint: List them with `outreach profiles list`/);
    expect(byEnv.stderr).toMatch(/^error: no profile named "nope" \(OUTREACH_PROFILE\)\nhint: List them/);
  });
});
