// Real exports from fixtures/corpora/exports (see its SOURCES.md), imported as a user would, without flags: each file
// of a tool we recognise imports; every row is sent or rejected with its reason (issue 26).
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-exports-');
});
afterEach(() => sb.close());

async function importExport(name: string) {
  copyFileSync(new URL(`../../fixtures/corpora/exports/${name}`, import.meta.url), join(dir, name));
  const result = await run(['prospects', 'import', name, '--wait', '--json'], { env: sb.env, cwd: dir });
  return { ...result, summary: result.stdout ? JSON.parse(result.stdout) : undefined };
}
const stored = (email: string) => prospectByEmail(sb, email)?.values;

describe('real exports, imported without flags', () => {
  it('LinkedIn: the Notes preamble is skipped; connections without an email are rejected, the rest imported', async () => {
    const result = await importExport('linkedin-connections-jasontoups.csv');
    expect(result.code).toBe(3);
    expect(result.summary).toMatchObject({ total: 135, sent: 5, rejected: 130, succeeded: 5, failed: 0 });
    expect(result.stderr).toContain('skipped 3 line(s) before the header on line 4');
    const rejected = readFileSync(join(dir, 'linkedin-connections-jasontoups.rejected.csv'), 'utf8').trim().split('\n');
    expect(rejected).toHaveLength(131);
    expect(rejected.slice(1).every((line) => /^\d+,empty email,/.test(line))).toBe(true);
    const alone = await importExport('linkedin-connections-tombarr.csv');
    expect(alone.code).toBe(2);
    expect(alone.summary).toMatchObject({ total: 1, sent: 0, rejected: 1 });
  });

  it('Google (legacy CSV), Outlook, Salesforce and Mailchimp exports import whole', async () => {
    for (const [name, email, total] of [
      ['roundcube-gmail.csv', 'home@aaa.pl', 1],
      ['roundcube-outlook.csv', 'test1@domain.tld', 1],
      ['salesforce-contacts-awsdocs.csv', 'arosales@example.com', 10],
      ['mailchimp-members-honeyformat.csv', 'mail@example.com', 1],
    ] as const) {
      const result = await importExport(name);
      expect({ name, code: result.code, summary: result.summary }).toMatchObject({
        name,
        code: 0,
        summary: { total, sent: total, rejected: 0, succeeded: total },
      });
      expect(stored(email)).toBeDefined();
    }
    expect(stored('arosales@example.com')).toMatchObject({ fJobTitl: 'Operations Manager', fPhoneNo: '+18705550156' });
  });
});
