// sequences: step variants, subsequence updates, contacts, pause/resume, test emails; CLI and sandbox rules.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse, run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectsTable } from '../../src/sandbox/resources/prospects/tables.js';
import { state, prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-sequences-');
});
afterEach(() => sb.close());

const seq = (argv: string[]) => run(['sequences', ...argv], { env: sb.env, cwd: dir });
const sub = () => state(sb).sequences[0]!.subsequences[0]!;
const sequence = (id: string) => state(sb).sequences.find((s) => s.id === id)!;

describe('sequences steps', () => {
  it('lists the variants with codes named', async () => {
    const result = await seq(['steps', 'sqOnbrd1', 'stA1intro']);
    expect(result.stdout).toBe(
      'vrA1a\t1 Email\t1 active\t1\t1\tQuick question about {{Company}}\nvrA1b\t1 Email\t1 active\t1\t1\t{{First Name}}, idea for {{Company}}\n',
    );
    expect((await seq(['steps', 'sqOnbrd1', 'stA2call'])).stdout).toBe(
      'vrA2a\t11 Call introduction\t1 active\t1\t1\tAsk about current tooling\n',
    );
  });

  it('answers an unknown step as every unknown id: exit 2, named', async () => {
    const result = await seq(['steps', 'sqOnbrd1', 'nope']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe('error: no step nope');
  });
});

describe('sequences subsequence update', () => {
  it('parses conditions with spaces, numbers, booleans and no value', async () => {
    const parsed = await parse([
      'sequences',
      'subsequence',
      'update',
      's',
      'u',
      '--condition',
      'Email Open Count:greater than:3',
      '--condition',
      'Replied:is:false',
      '--condition',
      'Link Click:is any',
    ]);
    expect(parsed.options.condition).toEqual([
      'Email Open Count:greater than:3',
      'Replied:is:false',
      'Link Click:is any',
    ]);
    const result = await seq([
      'subsequence',
      'update',
      'sqOnbrd1',
      'ssReplied',
      '--condition',
      'Email Open Count:greater than:3',
      '--condition',
      'Link Click:is any',
    ]);
    expect(result.code).toBe(0);
    expect(sub().conditions.map(({ conditionId: _id, ...c }) => c)).toEqual([
      { name: 'Email Open Count', operation: 'greater than', value: 3 },
      { name: 'Link Click', operation: 'is any' },
    ]);
  });

  it('leaves settings that were not given unchanged', async () => {
    expect((await seq(['subsequence', 'update', 'sqOnbrd1', 'ssReplied', '--delay-days', '5'])).code).toBe(0);
    expect(sub()).toMatchObject({
      firstStepRelativeDays: 5,
      scheduleId: 58964,
      conditions: [{ name: 'Replied', operation: 'is', value: true }],
    });
    expect((await seq(['subsequence', 'update', 'sqOnbrd1', 'ssReplied', '--schedule', '58965'])).code).toBe(0);
    expect(sub()).toMatchObject({ firstStepRelativeDays: 5, scheduleId: 58965 });
  });

  it('refuses an empty set of conditions locally, saying the API would ignore it', async () => {
    const result = await seq(['subsequence', 'update', 'sqOnbrd1', 'ssReplied', '--clear-conditions']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: an empty set of conditions is refused: the API would silently ignore it and keep the current conditions',
    );
    expect(sb.sandbox.requestLog).toHaveLength(0);
  });

  it('refuses --delay-days 0 before sending', async () => {
    const result = await seq(['subsequence', 'update', 'sqOnbrd1', 'ssReplied', '--delay-days', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --delay-days must be a whole number of at least 1, not "0"');
  });
});

describe('sequences subsequence get', () => {
  it('shows what update set, and an unknown id is refused by the service', async () => {
    const updated = await seq([
      'subsequence',
      'update',
      'sqOnbrd1',
      'ssReplied',
      '--delay-days',
      '4',
      '--condition',
      'Replied:is:false',
    ]);
    expect(updated.code).toBe(0);
    const got = await seq(['subsequence', 'get', 'ssReplied']);
    expect(got).toMatchObject({
      code: 0,
      stdout: `schedule\t${sub().scheduleId}\ndelay days\t4\nconditions\tReplied:is:false\n`,
    });
    expect(JSON.parse((await seq(['subsequence', 'get', 'ssReplied', '--json'])).stdout)).toMatchObject({
      firstStepRelativeDays: 4,
      sequenceId: 'sqOnbrd1',
    });
    // Parent first, as update takes them; a parent that is not the subsequence's is refused.
    expect((await seq(['subsequence', 'get', 'sqOnbrd1', 'ssReplied'])).stdout).toBe(got.stdout);
    const elsewhere = await seq(['subsequence', 'get', 'sqReEngg2', 'ssReplied']);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr.split('\n')[0]).toBe('error: subsequence ssReplied is in sequence sqOnbrd1, not sqReEngg2');
    const unknown = await seq(['subsequence', 'get', 'ssNope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('error: no subsequence ssNope');
  });
});

describe('subsequence rules in the sandbox', () => {
  it('silently ignores an empty conditions array', async () => {
    const res = await sb.request('PATCH', '/v1/sequences/sqOnbrd1/subsequence/ssReplied', { conditions: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Subsequence updated successfully' });
    expect(sub().conditions).toHaveLength(1);
  });

  it('refuses firstStepRelativeDays below 1', async () => {
    const res = await sb.request('PATCH', '/v1/sequences/sqOnbrd1/subsequence/ssReplied', { firstStepRelativeDays: 0 });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Validation failed: body.firstStepRelativeDays: firstStepRelativeDays must be at least 1',
    );
  });

  it('reads the settings back', async () => {
    const res = await sb.request('GET', '/v1/sequences/subsequence/ssReplied/settings');
    expect(res.body.payload).toMatchObject({
      id: 'ssReplied',
      scheduleId: 58964,
      firstStepRelativeDays: 2,
      sequenceId: 'sqOnbrd1',
    });
  });
});

describe('sequences add-contacts, pause, resume, test-email', () => {
  it('adds contacts to a step, from arguments and a file', async () => {
    writeFileSync(join(dir, 'ids.txt'), 'prLinus05\n');
    const result = await seq(['add-contacts', 'sqEvents3', '--step', 'stC1mail', 'prGrace02', '--file', 'ids.txt']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('Added 2 contact(s) to step stC1mail of sqEvents3.\n');
    const linus = prospectByEmail(sb, 'linus@kernel.example')!;
    expect(linus.sequences).toEqual([{ sequenceId: 'sqEvents3', stepId: 'stC1mail', state: 'active' }]);
  });

  it('says how many contacts went in when a later batch fails', async () => {
    const base = prospectByEmail(sb, 'linus@kernel.example')!;
    for (let i = 0; i < 500; i++)
      sb.sandbox.store.table(prospectsTable).put({ ...base, id: `pp${i}`, email: `pp${i}@x.example`, sequences: [] });
    writeFileSync(join(dir, 'ids.txt'), [...Array.from({ length: 500 }, (_, i) => `pp${i}`), 'nope'].join('\n'));
    const result = await seq(['add-contacts', 'sqEvents3', '--step', 'stC1mail', '--file', 'ids.txt']);
    expect(result.code).toBe(2); // an unknown id, as anywhere
    expect(result.stderr).toContain(
      'warning: the first 500 of 501 contacts were added before this failed; running the command again is safe\n',
    );
    expect(result.stderr).toContain('Contacts not found: nope');
  });

  it('pauses and resumes, counting unknown and already paused/active as failed (exit 3)', async () => {
    const pause = await seq(['pause', 'sqOnbrd1', 'sqReEngg2', 'nope']);
    expect(pause.stdout).toBe('success\t1\nfailed\t2\n');
    expect(pause.code).toBe(3);
    expect(sequence('sqOnbrd1').active).toBe(false);
    const resume = await seq(['resume', 'sqOnbrd1', '--json']);
    expect(resume.code).toBe(0);
    expect(JSON.parse(resume.stdout)).toEqual({ success: 1, failed: 0 });
    expect(sequence('sqOnbrd1').active).toBe(true);
  });

  it('sends a test email only from a connected account, never replaying it', async () => {
    writeFileSync(join(dir, 'body.html'), '<p>Hello</p>');
    const ok = await seq([
      'test-email',
      'sqOnbrd1',
      '--to',
      'me@x.example',
      '--from-account',
      'ea1Alice',
      '--subject',
      'Hi',
      '--content-file',
      'body.html',
    ]);
    expect(ok.code).toBe(0);
    const notConnected = await seq([
      'test-email',
      'sqEvents3',
      '--to',
      'me@x.example',
      '--from-account',
      'ea1Alice',
      '--subject',
      'Hi',
      '--content-file',
      'body.html',
    ]);
    expect(notConnected.code).toBe(2);
    expect(notConnected.stderr).toMatch(/^error: no email account ea1Alice in sequence sqEvents3\nhint: Give an email/);
    const badTo = await seq([
      'test-email',
      'sqOnbrd1',
      '--to',
      'nope',
      '--from-account',
      'ea1Alice',
      '--subject',
      'Hi',
      '--content-file',
      'body.html',
    ]);
    expect(badTo.code).toBe(2);
  });
});
