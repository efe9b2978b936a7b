// dnc sync through the real CLI against an in-process sandbox: each export format (the corpora's real files and the
// hand-made samples of fixtures/dnc-exports), the difference shown before anything is sent, --dry-run, --yes, the
// refusal without it, and a resume.
import { appendFileSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutJournal } from '../helpers/journal.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-dnc-sync-');
});
afterEach(() => sb.close());

const fixture = (name: string, from = 'dnc-exports') => {
  copyFileSync(new URL(`../../fixtures/${from}/${name}`, import.meta.url), join(dir, name));
  return name;
};
const sync = (argv: string[]) => run(['dnc', 'sync', ...argv], { env: sb.env, cwd: dir });
const customers = () => state(sb).dncLists[1]!.items.map((i) => i.value);
const adds = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/dnc').length;

type Diff = {
  source: { name: string; title: string };
  rows: number;
  new: { email: number; domain: number };
  alreadyThere: { email: number; domain: number };
  invalid: number;
  duplicates: number;
  leftOut: { rows: number; reasons: Record<string, number> };
  sent: number;
};

async function synced(file: string, extra: string[] = []): Promise<{ diff: Diff; values: string[] }> {
  const result = await sync([file, '--list', 'dncCustmr2', '--yes', '--json', ...extra]);
  expect([0, 3]).toContain(result.code);
  return {
    diff: JSON.parse(result.stdout) as Diff,
    values: customers().filter((v) => !['acme.com', 'ceo@initech.com'].includes(v)),
  };
}

describe('dnc sync of each export format', () => {
  it('the corpus Mailchimp audience export: every member is subscribed, so nothing is added', async () => {
    const { diff, values } = await synced(fixture('mailchimp-members-honeyformat.csv', 'corpora/exports'));
    expect(diff.source).toEqual({ name: 'mailchimp', title: 'a Mailchimp audience export' });
    expect(diff.leftOut).toEqual({ rows: 1, reasons: { 'no status, in an audience export (its subscribers)': 1 } });
    expect(values).toEqual([]);
    expect(adds()).toBe(0);
  });

  it('the corpus Apollo contacts export: every contact is at stage "Cold", so nothing is added', async () => {
    const { diff, values } = await synced(fixture('apollo-contacts-export-coding-cooking.csv', 'corpora/exports'));
    expect(diff.source.name).toBe('apollo');
    expect(diff.leftOut).toEqual({ rows: 8, reasons: { 'stage "Cold" in Apollo, not do-not-contact': 8 } });
    expect(values).toEqual([]);
  });

  // Contacts exports of other kinds, with no column saying who opted out: refused unless --source plain says to read
  // every row as an opt-out; then their email column, never a URL or website column beside it (a LinkedIn profile
  // URL is a domain, linkedin.com, to `dnc add`), and a row without an address left out.
  it.each([
    ['linkedin-connections-tombarr.csv', '"Email Address"', [], { 'no value in the row': 1 }],
    [
      'linkedin-connections-jasontoups.csv',
      '"Email Address"',
      [
        'connection6@example.com',
        'connection19@example.net',
        'connection36@example.com',
        'connection45@example.com',
        'connection133@example.com',
      ],
      { 'no value in the row': 130 },
    ],
    ['roundcube-gmail.csv', '"E-mail 1 - Value"', ['home@aaa.pl'], {}],
    ['roundcube-outlook.csv', '"E-mail Address"', ['test1@domain.tld'], {}],
    ['roundcube-tb_plain.csv', '"Primary Email"', ['test@domain.tld'], {}],
    [
      'salesforce-contacts-awsdocs.csv',
      '"Email"',
      [
        'arosales',
        'asilvia',
        'jli',
        'adesai',
        'mjackson',
        'njayashankar',
        'srodriguez',
        'xwang',
        'ssarkar',
        'wzhang',
      ].map((name) => `${name}@example.com`),
      {},
    ],
  ])(
    'the corpus contacts export %s is refused, and read by its %s column with --source plain',
    async (file, column, added, leftOut) => {
      const refused = await sync([fixture(file, 'corpora/exports'), '--list', 'dncCustmr2', '--dry-run']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(
        /^(warning: .*\n)?error: [\w.-]+: it looks like an? [A-Z][\w ]+ contacts export, with no column saying who opted out: every row would be read as an opt-out; give --source plain \(or --column NAME\) to read it so\n/,
      );
      const tool = { 'roundcube-outlook.csv': 'an Outlook', 'roundcube-tb_plain.csv': 'a Thunderbird' }[file];
      if (tool) expect(refused.stderr).toContain(`it looks like ${tool} contacts export`);
      const { diff, values } = await synced(fixture(file, 'corpora/exports'), ['--source', 'plain']);
      expect(diff.source).toEqual({ name: 'plain', title: `the ${column} column` });
      expect(diff.invalid).toBe(0);
      expect(diff.leftOut.reasons).toEqual(leftOut);
      expect(values).toEqual(added);
    },
  );

  it.each([
    [
      'hubspot-unsubscribes-and-bounces.csv',
      'a HubSpot unsubscribes and bounces export',
      ['bounced@hs.example', 'unsub@hs.example', 'spam@hs.example', 'global@hs.example'],
      {
        'unsubscribed from some email types only in HubSpot': 1,
        'no unsubscribe, bounce or spam report in HubSpot': 1,
      },
    ],
    [
      'hubspot-contacts.csv',
      'a HubSpot contacts export',
      ['ann@hs-contacts.example'],
      { 'not unsubscribed from all email in HubSpot': 2 },
    ],
    // Its "Status" is the audience's own field (Customer, Lead): every row of an unsubscribed export is an opt-out.
    [
      'mailchimp-unsubscribed.csv',
      'a Mailchimp unsubscribed export',
      ['left@mc.example', 'also.left@mc.example', 'lead-status@mc.example'],
      {},
    ],
    ['mailchimp-cleaned.csv', 'a Mailchimp cleaned export', ['bounced@mc.example'], {}],
    [
      'mailchimp-audience-with-status.csv',
      'a Mailchimp audience export',
      ['unsub@mc.example', 'cleaned@mc.example'],
      { 'subscribed in Mailchimp': 1, 'pending in Mailchimp': 1 },
    ],
    [
      'lemlist-unsubscribes.csv',
      'a lemlist unsubscribes export',
      ['lead@lemlist.example', 'abuse.example', 'user@lemlist.example', 'bounce@lemlist.example'],
      // Read as a URL, a profile would block linkedin.com.
      {
        'a LinkedIn profile in lemlist, not an email or a domain': 1,
        'a phone number in lemlist, not an email or a domain': 1,
      },
    ],
    [
      'instantly-block-list.csv',
      'an Instantly block list',
      ['blocked@instantly.example', 'competitor-instantly.example'],
      {},
    ],
    [
      'instantly-blocked-emails.csv',
      'an Instantly block list',
      ['blocked@instantly-app.example', 'rival-instantly-app.example'],
      {},
    ],
    [
      'smartlead-block-list.csv',
      'a Smartlead block list',
      ['blocked@smartlead.example', 'rival-smartlead.example'],
      {},
    ],
    [
      'apollo-do-not-contact.csv',
      'an Apollo contacts export',
      ['dnc@apollo.example', 'bounced@apollo.example', 'status-bounced@apollo.example'],
      { 'stage "Cold" in Apollo, not do-not-contact': 1 },
    ],
    [
      'plain-no-header.txt',
      'a plain column of values',
      ['optout1@plain.example', 'plain-domain.example', 'plain-site.example'],
      {},
    ],
  ])('%s is read as %s', async (file, title, added, leftOut) => {
    const { diff, values } = await synced(fixture(file));
    expect(diff.source.title).toBe(title);
    expect(values).toEqual(added);
    expect(diff.leftOut.reasons).toEqual(leftOut);
    expect(diff.sent).toBe(added.length);
  });

  it('a plain column with a header: invalid values go to the rejected file with their row, exit 3', async () => {
    const result = await sync([fixture('plain-with-header.csv'), '--list', 'dncCustmr2', '--yes']);
    expect(result.code).toBe(3);
    expect(customers()).toContain('optout2@plain.example');
    expect(readFileSync(join(dir, 'plain-with-header.rejected.csv'), 'utf8')).toBe(
      'row,reason,Email\n3,"not an email or a domain: invalid domain ""not a value"": "" "" is not a letter, digit, hyphen or dot",not a value\n',
    );
  });

  it('a header several tools could have written needs --source (or --from), and a wrong --source says why', async () => {
    writeFileSync(join(dir, 'both.csv'), 'bl_value,email_or_domain\na@both.example,b@both.example\n');
    const ambiguous = await sync(['both.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toBe(
      'error: both.csv: the header fits the exports of Instantly and Smartlead; say which with --source (or --from)\n' +
        'hint: --source (or --from) takes: hubspot, mailchimp, lemlist, instantly, smartlead, apollo, plain; --column NAME reads one column of any CSV.\n',
    );
    const chosen = await sync(['both.csv', '--list', 'dncCustmr2', '--from', 'smartlead', '--yes']);
    expect(chosen.code).toBe(0);
    expect(customers()).toContain('b@both.example');
    // Read as a plain column on purpose: said, since every row then counts as an opt-out.
    const hubspot = await sync([
      fixture('hubspot-contacts.csv'),
      '--list',
      'dncCustmr2',
      '--from',
      'plain',
      '--dry-run',
    ]);
    expect(hubspot.stderr).toContain(
      'looks like a HubSpot contacts export; --source plain reads every row as an opt-out',
    );
    // One with a Status column is read by it, and the warning says so, not that every row counts.
    const mailchimp = await sync([
      fixture('mailchimp-audience-with-status.csv'),
      '--list',
      'dncCustmr2',
      '--from',
      'plain',
      '--dry-run',
      '--json',
    ]);
    expect(mailchimp.stderr).toContain(
      'warning: mailchimp-audience-with-status.csv looks like a Mailchimp audience export; --source plain reads it as ' +
        'any CSV: the "Email Address" column, rows "Status" marks as opted out, not by its tool\'s rules\n',
    );
    expect(JSON.parse(mailchimp.stdout)).toMatchObject({
      leftOut: { reasons: { '"Status" "subscribed", not an opt-out': 1 } },
    });
    const wrong = await sync(['both.csv', '--list', 'dncCustmr2', '--source', 'hubspot', '--dry-run']);
    expect(wrong.stderr).toBe(
      "error: both.csv: the header is not HubSpot's export: its columns are bl_value, email_or_domain\n" +
        'hint: --source (or --from) takes: hubspot, mailchimp, lemlist, instantly, smartlead, apollo, plain; --column NAME reads one column of any CSV.\n',
    );
  });
});

describe('dnc sync of a generic CSV', () => {
  it('an opt-out flag or a status column says which rows are opt-outs; the others are left out, each in a file', async () => {
    writeFileSync(
      join(dir, 'crm.csv'),
      'Email,Email Opt Out\nout1@crm.example,1\nin@crm.example,0\nout2@crm.example,true\n',
    );
    const flagged = await synced('crm.csv');
    expect(flagged.diff.source.title).toBe('the "Email" column, rows "Email Opt Out" marks as opted out');
    expect(flagged.diff.leftOut).toEqual({ rows: 1, reasons: { 'not marked by "Email Opt Out"': 1 } });
    expect(flagged.values).toEqual(['out1@crm.example', 'out2@crm.example']);
    expect(readFileSync(join(dir, 'crm.left-out.csv'), 'utf8')).toBe(
      'row,reason,Email,Email Opt Out\n3,"not marked by ""Email Opt Out""",in@crm.example,0\n',
    );
    writeFileSync(
      join(dir, 'status.csv'),
      'email,status\na@st.example,active\nb@st.example,Unsubscribed\nc@st.example,\n',
    );
    const status = await synced('status.csv');
    expect(status.diff.leftOut).toEqual({
      rows: 2,
      reasons: { '"status" "active", not an opt-out': 1, 'not marked by "status"': 1 },
    });
    expect(status.values).toContain('b@st.example');
    expect(status.values).not.toContain('a@st.example');
    // Any mark counts: a second flag, or a status beside a flag, written with _ or with more after it.
    writeFileSync(
      join(dir, 'marks.csv'),
      'Email,Email Opt Out,Do Not Contact,Status\n' +
        'one@mk.example,false,true,\ntwo@mk.example,,,do_not_contact\nthree@mk.example,N/A,,Unsubscribed (manual)\n' +
        'four@mk.example,no,off,active\nfive@mk.example,,,DNC\n',
    );
    const marks = await synced('marks.csv');
    expect(marks.values).toEqual(
      expect.arrayContaining(['one@mk.example', 'two@mk.example', 'three@mk.example', 'five@mk.example']),
    );
    expect(marks.values).not.toContain('four@mk.example');
  });

  it("--column reads the column it names; a name that is not there, or a tool's export it is not, is exit 2", async () => {
    writeFileSync(
      join(dir, 'two.csv'),
      'Work Email,Personal Email\nwork@col.example,home@col.example\n,only-home@col.example\n',
    );
    const { diff, values } = await synced('two.csv', ['--column', 'Personal Email']);
    expect(diff.source.title).toBe('the "Personal Email" column');
    expect(values).toEqual(['home@col.example', 'only-home@col.example']);
    const missing = await sync(['two.csv', '--list', 'dncCustmr2', '--column', 'Email', '--dry-run']);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([
      2,
      'error: two.csv: --column Email: no such column (its columns are Work Email, Personal Email)',
    ]);
    const withTool = await sync(['two.csv', '--list', 'dncCustmr2', '--column', 'Work Email', '--from', 'smartlead']);
    expect(withTool.stderr.split('\n')[0]).toBe(
      "error: two.csv: the header is not Smartlead's export: its columns are Work Email, Personal Email",
    );
  });

  it("--column on a tool's export reads that column, and the tool's rules still say who opted out", async () => {
    const hubspot = await synced(fixture('hubspot-contacts.csv'), ['--column', 'Email']);
    expect(hubspot.diff.source.title).toBe('a HubSpot contacts export, its "Email" column');
    expect(hubspot.values).toEqual(['ann@hs-contacts.example']);
    expect(hubspot.diff.leftOut.reasons).toEqual({ 'not unsubscribed from all email in HubSpot': 2 });
    writeFileSync(
      join(dir, 'apollo.csv'),
      'Email,Secondary Email,Stage,Email Bounced,Apollo Contact Id\n' +
        'work@ap.example,home@ap.example,Do Not Contact,false,c1\n' +
        'cold@ap.example,cold-home@ap.example,Cold,false,c2\n',
    );
    const apollo = await synced('apollo.csv', ['--column', 'Secondary Email']);
    expect(apollo.values.filter((v) => v.endsWith('@ap.example'))).toEqual(['home@ap.example']);
    expect(apollo.diff.leftOut.reasons).toEqual({ 'stage "Cold" in Apollo, not do-not-contact': 1 });
  });
});

describe('dnc sync: how a file is read', () => {
  it('a column of values with a delimiter in a later line: the lines above it are values, not a preamble', async () => {
    writeFileSync(join(dir, 'col.csv'), 'Email\nkeep1@x.example\nkeep2@x.example\nb@x.example,note\n');
    const { diff, values } = await synced('col.csv');
    expect(diff).toMatchObject({ rows: 3, invalid: 1 }); // two cells where the header has one: to the rejected file
    expect(values).toEqual(['keep1@x.example', 'keep2@x.example']);
    writeFileSync(join(dir, 'semi.csv'), 'Email\na@x.example\nb;c@x.example\n');
    const semi = await sync(['semi.csv', '--list', 'dncCustmr2', '--dry-run', '--json']);
    expect(semi.code).toBe(3);
    expect(JSON.parse(semi.stdout)).toMatchObject({ rows: 2, new: { email: 1 }, invalid: 1 });
  });

  it('--skip-lines says how many lines are above the header, as for an import', async () => {
    writeFileSync(join(dir, 'noted.csv'), 'exported-by@corp.example\nEmail,Note\nnoted@x.example,1\n');
    const { diff, values } = await synced('noted.csv', ['--skip-lines', '1']);
    expect(diff).toMatchObject({ rows: 1, invalid: 0 });
    expect(values).toEqual(['noted@x.example']);
  });

  it('reads stdin (-) through a private copy, keeping no journal to resume', async () => {
    const piped = await run(['dnc', 'sync', '-', '--list', 'dncCustmr2', '--yes', '--json'], {
      env: sb.env,
      cwd: dir,
      stdin: 'email\npiped@x.example\nacme.com\n',
    });
    expect(piped.code).toBe(0);
    // --json names it as given, as an import's does; the text says what it is.
    expect(JSON.parse(piped.stdout)).toMatchObject({ file: '-', new: { email: 1 }, alreadyThere: { domain: 1 } });
    expect(piped.stderr).toContain('stdin: a plain column of values, 2 rows, against "Current customers"');
    expect(customers()).toContain('piped@x.example');
    expect(readdirSync(dir)).toEqual([]); // no journal, no file of new values left
    const resume = await run(['dnc', 'sync', '-', '--list', 'dncCustmr2', '--resume', '--yes'], {
      env: sb.env,
      cwd: dir,
      stdin: '',
    });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toContain('error: --resume: a sync of stdin keeps no journal (stdin cannot be read again)');
  });

  it('every value invalid is exit 2 (nothing valid to send), as for dnc add', async () => {
    writeFileSync(join(dir, 'bad.csv'), 'email\nnot a value\nalso bad\n');
    const result = await sync(['bad.csv', '--list', 'dncCustmr2', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: every value is invalid: nothing to send\n');
    expect(adds()).toBe(0);
  });

  it('an empty file is exit 2; a header alone is nothing to add, exit 0; nothing sent', async () => {
    writeFileSync(join(dir, 'empty.csv'), '');
    writeFileSync(join(dir, 'header.csv'), 'Email Address,Unsubscribe Reason\r\n');
    const empty = await sync(['empty.csv', '--list', 'dncCustmr2', '--yes']);
    expect([empty.code, empty.stderr]).toEqual([
      2,
      'error: empty.csv: is empty (0 bytes): no header line\n' +
        'hint: A CSV starts with a header line naming its columns (Email, First Name, ...).\n',
    ]);
    // A header alone: an export of a period without opt-outs, which a scheduled sync must get through.
    const header = await sync(['header.csv', '--list', 'dncCustmr2', '--yes']);
    expect(header.code).toBe(0);
    expect(header.stderr).toMatch(/^warning: header.csv has a header and no rows: no one to add\n[^]*, 0 rows, /);
    expect(header.stderr).toMatch(/\nNothing new to add.\n$/);
    expect(adds()).toBe(0);
  });

  it('a UTF-16 file without a byte-order mark is read with --encoding, as its error says', async () => {
    writeFileSync(join(dir, 'u16.csv'), Buffer.from('email\nu16@x.example\n', 'utf16le'));
    const refused = await sync(['u16.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--encoding utf16le');
    const { values } = await synced('u16.csv', ['--encoding', 'utf16le']);
    expect(values).toEqual(['u16@x.example']);
  });
});

describe('dnc sync: what a file cannot do', () => {
  it('its cells make at most 20 kinds of reason (the rest "other"), each on one line', async () => {
    const statuses = Array.from({ length: 30 }, (_, i) => `"odd\n${i}"`);
    writeFileSync(
      join(dir, 'odd.csv'),
      `"Email Address",Status,LEID\n${statuses.map((st, i) => `o${i}@x.example,${st},${i}`).join('\n')}\nc@x.example,constructor,9\n`,
    );
    const result = await sync(['odd.csv', '--list', 'dncCustmr2', '--dry-run', '--json']);
    const reasons = (JSON.parse(result.stdout) as Diff).leftOut.reasons;
    expect(Object.keys(reasons)).toHaveLength(21);
    expect(reasons['odd\\n0 in Mailchimp']).toBe(1);
    expect(reasons.other).toBe(11);
    expect(result.stderr).not.toMatch(/odd\n/);
  });
});

describe('dnc sync: the difference first', () => {
  beforeEach(() =>
    writeFileSync(
      join(dir, 'unsub.csv'),
      'Email Address,UNSUB_TIME\nann@x.example,2024-01-01\nACME.com,2024-01-01\nceo@initech.com,2024-01-01\n' +
        'bad@,2024-01-01\nann@x.example,2024-01-02\n',
    ),
  );
  const diffLines = (rejected: string) =>
    'unsub.csv: a Mailchimp unsubscribed export, 5 rows, against "Current customers" (dncCustmr2, 2 values)\n' +
    '  new            1 (1 email, 0 domains)\n' +
    '  already there  2 (1 email, 1 domain)\n' +
    `  invalid        1 (each with its reason in ${rejected})\n` +
    '  duplicates     1 (in the file)\n' +
    '  left out       0\n';

  it("writes an Excel export's rejects as Excel wrote it: Windows-1252, sep=;, CRLF; a refused run's under its real name", async () => {
    writeFileSync(
      join(dir, 'w.csv'),
      iconv.encode('sep=;\r\nEmail;Name\r\nout@w.example;Zoë\r\nnot-an-email;Jürgen\r\n', 'win1252'),
    );
    const result = await sync(['w.csv', '--list', 'dncCustmr2']);
    expect(result.code).toBe(2); // no --yes, no terminal
    expect(readFileSync(join(dir, 'w.rejected.csv'))).toEqual(
      iconv.encode(
        'sep=;\r\nrow;reason;Email;Name\r\n' +
          '4;"not an email or a domain: invalid domain ""not-an-email"": no top-level domain";not-an-email;Jürgen\r\n',
        'win1252',
      ),
    );
  });

  it('counts the new values a domain on the list stops already, and sends them all the same', async () => {
    // "Current customers" holds acme.com: an address there, or a subdomain of it, is stopped by it already.
    writeFileSync(join(dir, 'cov.csv'), 'email_or_domain\nbob@acme.com\nmail.acme.com\nnew@fresh.example\n');
    const look = await sync(['cov.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(look.stderr).toContain(
      '  new            3 (2 emails, 1 domain); 2 of them stopped already by a domain on the list\n',
    );
    const sent = await sync(['cov.csv', '--list', 'dncCustmr2', '--yes', '--json']);
    expect(JSON.parse(sent.stdout)).toMatchObject({ new: { email: 2, domain: 1 }, coveredByDomain: 2, sent: 3 });
    expect(customers()).toEqual(expect.arrayContaining(['bob@acme.com', 'mail.acme.com', 'new@fresh.example']));
  });

  it('--dry-run shows it and sends nothing (exit 3: a row was invalid)', async () => {
    const result = await sync(['unsub.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(result.code).toBe(3);
    // A look has reports of its own: a real run's are never replaced by one.
    const rejected = join(dir, 'unsub.dry-run.rejected.csv');
    expect(result.stderr).toBe(
      `${diffLines(rejected)}Dry run: nothing was sent. To add the 1 new value: ` +
        'outreach dnc sync unsub.csv --list dncCustmr2 --yes\n' +
        `error: 1 row invalid\nhint: Each row of ${rejected} says why.\n`,
    );
    expect(adds()).toBe(0);
    const json = await sync(['unsub.csv', '--list', 'dncCustmr2', '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, sent: 0 });
    expect(existsSync(join(dir, 'unsub.dnc-sync-new.csv'))).toBe(false);
  });

  it('without --yes and no terminal: the difference, then a refusal (exit 2), nothing sent, no file left', async () => {
    const result = await sync(['unsub.csv', '--list', 'dncCustmr2']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: refusing to add 1 value to dncCustmr2 without --yes (no terminal to ask on)\n',
    );
    expect(result.stderr.startsWith(diffLines(join(dir, 'unsub.rejected.csv')))).toBe(true);
    expect(adds()).toBe(0);
    expect(existsSync(join(dir, 'unsub.dnc-sync-new.csv'))).toBe(false);
    // A script asking for --json still gets the difference it was refused on.
    const json = await sync(['unsub.csv', '--list', 'dncCustmr2', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ sent: 0, new: { email: 1, domain: 0 } });
    expect(json.stderr).toContain('error: refusing to add 1 value to dncCustmr2 without --yes');
  });

  it('--yes sends only the new values', async () => {
    const result = await sync(['unsub.csv', '--list', 'dncCustmr2', '--yes']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('Added 1 value to "Current customers" (dncCustmr2) from unsub.csv.\n');
    expect(customers()).toEqual(['acme.com', 'ceo@initech.com', 'ann@x.example']);
  });

  it('an unknown list is exit 2 before the file is read', async () => {
    const result = await sync(['unsub.csv', '--list', 'dncNope', '--dry-run']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: --list dncNope: no do-not-contact list has this id\nhint: See them with: outreach dnc lists\n',
    );
  });
});

describe('dnc sync: an interrupted upload', () => {
  /** many.csv: 25 new addresses, 3 chunks of 10. */
  const writeMany = () =>
    writeFileSync(
      join(dir, 'many.csv'),
      `email\n${Array.from({ length: 25 }, (_, i) => `m${i}@many.example`).join('\n')}\n`,
    );

  it('refuses a new run over it, and --resume --yes sends only the chunks not accepted', async () => {
    writeMany();
    const first = await sync([
      'many.csv',
      '--list',
      'dncCustmr2',
      '--yes',
      '--chunk-size',
      '10',
      '--concurrency',
      '1',
      '--keep-journal',
    ]);
    expect(first.code).toBe(0);
    cutJournal(join(dir, 'many.dnc-sync-journal'), 1);
    const before = adds();
    const again = await sync(['many.csv', '--list', 'dncCustmr2', '--yes', '--chunk-size', '10']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('error: an earlier sync of many.csv stopped with 1 chunk accepted\n');
    // A dry run may look at the difference meanwhile: it says how to continue, and leaves the journal be.
    const look = await sync(['many.csv', '--list', 'dncCustmr2', '--dry-run', '--chunk-size', '10']);
    expect(look.code).toBe(0);
    expect(look.stderr).toContain(
      'warning: an earlier sync of many.csv stopped with 1 chunk accepted; continue it with: ' +
        'outreach dnc sync many.csv --list dncCustmr2 --chunk-size 10 --resume --yes\n',
    );
    // Looked at without the stopped run's --chunk-size (or with another): the line to continue carries it.
    const suggested = 'outreach dnc sync many.csv --list dncCustmr2 --resume --yes --chunk-size 10';
    const plain = await sync(['many.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(plain.stderr).toContain(`continue it with: ${suggested}\n`);
    // The line that continues it is the one to send with: not also a fresh --yes, which this state refuses.
    expect(plain.stderr).not.toContain('To add the');
    const other = await sync(['many.csv', '--list', 'dncCustmr2', '--dry-run', '--chunk-size=20']);
    expect(other.stderr).toContain(`continue it with: ${suggested}\n`);
    expect(adds()).toBe(before);
    const resumed = await sync([...suggested.split(' ').slice(3), '--json']);
    expect(resumed.code).toBe(0);
    expect(adds() - before).toBe(2);
    // 25 in all, 10 of them (the chunk the journal kept) by the interrupted run.
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 25, sentBefore: 10, resumed: true });
    expect(existsSync(join(dir, 'many.dnc-sync-new.csv'))).toBe(false);
    expect(customers()).toHaveLength(27);
  });

  it('stopped before its first chunk was accepted: a new run starts over it, and --resume sends every value', async () => {
    writeMany();
    const argv = ['many.csv', '--list', 'dncCustmr2', '--yes', '--chunk-size', '10', '--concurrency', '1'];
    expect((await sync([...argv, '--keep-journal'])).code).toBe(0);
    // As a run whose first chunk failed leaves it: its new values, and a journal with nothing accepted.
    cutJournal(join(dir, 'many.dnc-sync-journal'), 0);
    sb.sandbox.reset();
    const again = await sync(['many.csv', '--list', 'dncCustmr2', '--dry-run']);
    expect(again.stderr).toContain('  new            25 (25 emails, 0 domains)\n');
    const resumed = await sync([...argv, '--resume', '--json']);
    // The difference it continues, as the run that stopped showed it (on stderr: JSON is stdout's).
    expect(resumed.stderr).toBe(
      'many.csv: a plain column of values, 25 rows, against "Current customers" (dncCustmr2, 2 values)\n' +
        '  new            25 (25 emails, 0 domains)\n' +
        '  already there  0 (0 emails, 0 domains)\n' +
        '  invalid        0\n' +
        '  duplicates     0 (in the file)\n' +
        '  left out       0\n',
    );
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 25, sentBefore: 0, resumed: true });
    expect(customers()).toHaveLength(27);
  });

  // A column of addresses and a status: 25 to add, one invalid, one still subscribed (left out).
  const mixed = () =>
    writeFileSync(
      join(dir, 'mixed.csv'),
      'Email Address,Status\n' +
        Array.from({ length: 25 }, (_, i) => `m${i}@many.example,unsubscribed\n`).join('') +
        'not-an-email,unsubscribed\nkept@many.example,subscribed\n',
    );
  const mixedDiff =
    'mixed.csv: the "Email Address" column, rows "Status" marks as opted out, 27 rows, against "Current customers" ' +
    '(dncCustmr2, 2 values)\n' +
    '  new            25 (25 emails, 0 domains)\n' +
    '  already there  0 (0 emails, 0 domains)\n' +
    `  invalid        1 (each with its reason in ${'REJECTED'})\n` +
    '  duplicates     0 (in the file)\n' +
    '  left out       1 ("Status" "subscribed", not an opt-out: 1), each in LEFT\n';

  it('--resume says the difference the interrupted run showed, in text and JSON, and exits as it did (3: a row was invalid)', async () => {
    const argv = ['mixed.csv', '--list', 'dncCustmr2', '--yes', '--chunk-size', '10', '--concurrency', '1'];
    const interrupted = async () => {
      mixed();
      const first = await sync([...argv, '--keep-journal', '--json']);
      expect(first.code).toBe(3);
      cutJournal(join(dir, 'mixed.dnc-sync-journal'), 1);
      return JSON.parse(first.stdout) as Record<string, unknown> & { files: Record<string, string> };
    };
    await interrupted();
    const rejected = join(dir, 'mixed.rejected.csv');
    const resumed = await sync([...argv, '--resume']);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toBe(
      mixedDiff.replace('REJECTED', rejected).replace('LEFT', join(dir, 'mixed.left-out.csv')) +
        'Added 25 values to "Current customers" (dncCustmr2) from mixed.csv ' +
        '(resumed: 10 of them sent by the interrupted run).\n' +
        `error: 1 row invalid\nhint: Each row of ${rejected} says why.\n`,
    );
    expect(customers()).toHaveLength(27);
    // The same keys as the run that stopped (its file of new values is gone once they are sent), and the resume's.
    sb.sandbox.reset();
    const { sent: _sent, chunks: _chunks, files, ...diff } = await interrupted();
    const json = await sync([...argv, '--resume', '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toEqual({
      ...diff,
      files: { rejected: files.rejected, leftOut: files.leftOut },
      sent: 25,
      sentBefore: 10,
      chunks: 3,
      resumed: true,
    });
  });

  it('--resume to another list, or in other chunks, is refused before anything is shown, with the line that continues it', async () => {
    writeMany();
    const argv = ['many.csv', '--yes', '--concurrency', '1'];
    const first = await sync([...argv, '--list', 'dncCustmr2', '--chunk-size', '10', '--keep-journal']);
    expect(first.code).toBe(0);
    cutJournal(join(dir, 'many.dnc-sync-journal'), 1);
    const before = adds();
    const other = await sync([...argv, '--list', 'dncGlobal1', '--chunk-size', '10', '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(
      'error: --resume: the interrupted sync of many.csv was to --list dncCustmr2 with --chunk-size 10; this run ' +
        'gives --list dncGlobal1 with --chunk-size 10\n' +
        'hint: Continue it: outreach dnc sync many.csv --yes --concurrency 1 --chunk-size 10 --resume --list dncCustmr2; ' +
        'or diff again for the list you meant with --restart.\n',
    );
    const unsized = await sync([...argv, '--list', 'dncCustmr2', '--resume']);
    expect(unsized.code).toBe(2);
    expect(unsized.stderr).toContain(
      'hint: Continue it: outreach dnc sync many.csv --yes --concurrency 1 --list dncCustmr2 --resume --chunk-size 10;',
    );
    expect(adds()).toBe(before);
  });

  it("--resume of another account's sync is refused before its difference is shown or a question asked", async () => {
    writeMany();
    const argv = ['many.csv', '--list', 'dncCustmr2', '--yes', '--chunk-size', '10', '--concurrency', '1'];
    expect((await sync([...argv, '--keep-journal'])).code).toBe(0);
    const journal = join(dir, 'many.dnc-sync-journal');
    cutJournal(journal, 1);
    // As if another key had made it: its record names a list this account does not have.
    const [header, ...rest] = readFileSync(journal, 'utf8').trim().split('\n');
    const other = JSON.parse(header!) as { binding: { account: string }; said: { list: { name: string } } };
    other.binding.account = 'f'.repeat(32);
    other.said.list.name = 'Their own list';
    writeFileSync(journal, `${[JSON.stringify(other), ...rest].join('\n')}\n`, { mode: 0o600 });
    const before = adds();
    const resumed = await sync([...argv, '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(
      /^error: --resume: .*many\.dnc-sync-journal is not this run's journal: another account \(this run sends another API key\)\n/,
    );
    expect(resumed.stderr).not.toContain('Their own list');
    expect(adds()).toBe(before);
  });

  it('refuses --resume once the export has changed (an opt-out added to it would not be sent), and --restart diffs it again', async () => {
    const path = join(dir, 'many.csv');
    writeMany();
    const argv = ['many.csv', '--list', 'dncCustmr2', '--yes', '--chunk-size', '10', '--concurrency', '1'];
    expect((await sync([...argv, '--keep-journal'])).code).toBe(0);
    cutJournal(join(dir, 'many.dnc-sync-journal'), 1);
    appendFileSync(path, 'late.optout@many.example\n');
    const before = adds();
    const resumed = await sync([...argv, '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(
      /^error: --resume: many\.csv has changed since the sync that stopped \(421 bytes then, 446 now, or a later change time\)/,
    );
    expect(resumed.stderr).toContain('hint: Diff it again from the start: outreach dnc sync many.csv');
    expect(adds()).toBe(before);
    const restarted = await sync([...argv, '--restart', '--json']);
    expect(restarted.code).toBe(0);
    expect(JSON.parse(restarted.stdout)).toMatchObject({ new: { email: 1 }, alreadyThere: { email: 25 }, sent: 1 });
    expect(customers()).toContain('late.optout@many.example');
  });
});
