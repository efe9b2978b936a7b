// prospects import against broken and unusual files, through the real CLI: every data row is sent or rejected with its
// reason (the counts add up), rows are numbered by file line, and files that are not CSV are refused with what they are.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-inputs-');
});
afterEach(() => sb.close());

const header = 'First Name,Email,Company';
const person = (i: number) => `P${i},p${i}@inputs.example,Co ${i}`;
const put = (name: string, content: string | Buffer) => writeFileSync(join(dir, name), content);
const importFile = (name: string, ...argv: string[]) =>
  run(['prospects', 'import', name, '--wait', ...argv], { env: sb.env, cwd: dir });
const importPosts = () => sb.sandbox.requestLog.filter((r) => r.path.startsWith('/v1/prospects/import-')).length;
const stored = (email: string) => prospectByEmail(sb, email);

describe('prospects import of broken files', () => {
  it('stops at an unterminated quote with its line, before sending a row of it', async () => {
    const lines = [header, ...Array.from({ length: 20 }, (_, i) => person(i + 1))];
    lines[6] = 'P6,"p6@inputs.example,Co 6'; // line 7 opens a quote that never closes
    put('quote.csv', `${lines.join('\n')}\n`);
    const result = await importFile('quote.csv');
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n').slice(0, 2)).toEqual([
      'error: quote.csv: line 7: a quoted field opens here and is never closed, so the rest of the file (14 more lines) would be one value',
      'hint: Fix the quoting on line 7 (a value with a " must be quoted, its " doubled). Rows before it are read.',
    ]);
    expect(importPosts()).toBe(0);
  });

  it('stops at a broken quote after chunks were accepted with exit 1 and the command that continues', async () => {
    const lines = [header, ...Array.from({ length: 30 }, (_, i) => person(i + 1))];
    lines[25] = 'P25,"p25@inputs.example,Co 25';
    put('late.csv', `${lines.join('\n')}\n`);
    const result = await importFile('late.csv', '--chunk-size', '10', '--concurrency', '1');
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'error: late.csv: line 26: a quoted field opens here and is never closed, so the rest of the file (5 more lines) would be one value',
      'hint: Fix the quoting on line 26 (a value with a " must be quoted, its " doubled). Rows before it are read. Once the file is fixed, the command below sends only the rest.',
      'Accepted so far: 20 rows in 2 chunks (not sent again).',
      'To continue: outreach prospects import late.csv --wait --chunk-size 10 --concurrency 1 --resume',
      '',
    ]);
    expect(importPosts()).toBe(2);
  });

  it('from stdin, which keeps no journal, still says how many rows were accepted before a broken quote', async () => {
    const lines = [header, ...Array.from({ length: 30 }, (_, i) => person(i + 1))];
    lines[25] = 'P25,"p25@inputs.example,Co 25';
    const result = await run(['prospects', 'import', '-', '--chunk-size', '10', '--concurrency', '1'], {
      env: sb.env,
      cwd: dir,
      stdin: `${lines.join('\n')}\n`,
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').slice(1)).toEqual([
      'hint: Fix the quoting on line 26 (a value with a " must be quoted, its " doubled). Rows before it are read. Once it is fixed, send only the rows after those accepted.',
      'Accepted so far: 20 rows in 2 chunks.',
      '',
    ]);
    expect(importPosts()).toBe(2);
  });

  it('rejects a row with a 5 MB value and imports every other row: the counts add up', async () => {
    put('big.csv', [header, person(1), `P2,p2@inputs.example,"${'x'.repeat(5 * 2 ** 20)}"`, person(3)].join('\n'));
    const result = await importFile('big.csv', '--json');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 3, sent: 2, rejected: 1, succeeded: 2 });
    expect(
      readFileSync(join(dir, 'big.rejected.csv'), 'utf8')
        .split('\n')[1]!
        .startsWith('3,column 3 holds 5.0 MB; a field value is at most 1 MB,P2,p2@inputs.example,xxx'),
    ).toBe(true);
  });

  it('numbers rows by file line across blank lines and multi-line values', async () => {
    put('lines.csv', `${header}\n${person(1)}\n\n"Multi\nLine",p2@inputs.example,Co\n\nP3,not-an-email,Co\n`);
    const result = await importFile('lines.csv');
    expect(result.code).toBe(3);
    expect(readFileSync(join(dir, 'lines.results.csv'), 'utf8')).toBe(
      'row,email,outcome,reason\n' +
        '2,p1@inputs.example,succeeded,\n' +
        '4,p2@inputs.example,succeeded,\n' +
        '7,not-an-email,rejected,invalid email: missing @\n',
    );
  });

  it.each([
    [
      'book.csv',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0, 8, 0]),
      'an Excel workbook or another zip archive (.xlsx, .zip)',
    ],
    ['leads.csv.gz', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]), 'a gzip archive (.gz)'],
    ['shot.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), 'a PNG image'],
  ])('refuses %s, saying what it looks like', async (name, bytes, what) => {
    put(name, bytes);
    const result = await importFile(name);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: ${name}: this is not a CSV file: it looks like ${what}`);
    expect(result.stderr.split('\n')[1]).toMatch(/^hint: /);
    expect(sb.sandbox.requestLog).toHaveLength(0);
  });

  it('refuses UTF-16 without a byte-order mark, naming the --encoding that reads it', async () => {
    put('u16.csv', iconv.encode(`${header}\n${person(1)}\n`, 'utf16le'));
    const refused = await importFile('u16.csv');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'error: u16.csv: looks like UTF-16LE text without a byte-order mark\n' +
        'hint: Read it with --encoding utf16le, or save it again as "CSV UTF-8".\n',
    );
    const read = await importFile('u16.csv', '--encoding', 'utf16le');
    expect(read.code).toBe(0);
    expect(stored('p1@inputs.example')).toBeDefined();
  });

  it('reads Windows-1252 bytes as such, with a warning naming the encoding', async () => {
    put('win.csv', Buffer.from(`${header}\nRen\xe9,rene@inputs.example,Caf\xe9 \x93Chez\x94\n`, 'latin1'));
    const result = await importFile('win.csv');
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      'warning: win.csv: is not valid UTF-8; reading it as Windows-1252 (Excel\'s "CSV" on Windows). If names look wrong, give --encoding (utf8, utf16le, utf16be, latin1, windows-1252).',
    );
    expect(stored('rene@inputs.example')!.values).toMatchObject({ fFirstNm: 'René' });
  });

  it("finds the header under LinkedIn's Notes preamble, and takes --skip-lines", async () => {
    const notes =
      'Notes:\n"When exporting your connection data, you may notice that some of the email addresses are missing."\n\n';
    put(
      'Connections.csv',
      `${notes}First Name,Last Name,Email Address,Company\nAda,Byron,ada@inputs.example,Analytical\n`,
    );
    const found = await importFile('Connections.csv');
    expect(found.code).toBe(0);
    expect(found.stderr.split('\n')[0]).toBe(
      'warning: Connections.csv: skipped 3 line(s) before the header on line 4; --skip-lines N chooses',
    );
    expect(readFileSync(join(dir, 'Connections.results.csv'), 'utf8').split('\n')[1]).toBe(
      '5,ada@inputs.example,succeeded,',
    );
    put('two.csv', `exported 2026-11-20, by Ada\n${header}\n${person(9)}\n`);
    const skipped = await importFile('two.csv', '--skip-lines', '1');
    expect(skipped.code).toBe(0);
    expect(stored('p9@inputs.example')).toBeDefined();
  });

  it.each([
    ['header.csv', `${header}\n`, 'error: header.csv: no data rows under the header'],
    ['blank.csv', '\n\n  \n', 'error: blank.csv: holds only blank lines or spaces: no header, no rows'],
    ['tabs.csv', '\n \n\t\n', 'error: tabs.csv: holds only blank lines or spaces: no header, no rows'],
    ['zero.csv', '', 'error: zero.csv: is empty (0 bytes): no header line'],
  ])('says what is missing in %s (exit 2)', async (name, content, line) => {
    put(name, content);
    const result = await importFile(name);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(line);
    expect(importPosts()).toBe(0);
  });
});

describe('prospects import of real exports', () => {
  it('maps LinkedIn, Google Contacts and Outlook headers without flags, and says which it matched', async () => {
    put(
      'Connections.csv',
      'First Name,Last Name,URL,Email Address,Company,Position,Connected On\n' +
        'Ada,Lovelace,https://www.linkedin.com/in/ada-l,ada@li.example,Engines Ltd,Analyst,01 Jan 2026\n',
    );
    const linkedin = await importFile('Connections.csv');
    expect(linkedin.code).toBe(0);
    expect(linkedin.stderr).toContain(
      'LinkedIn export: columns matched by known export headers: "URL" -> LinkedIn, "Email Address" -> Email, ' +
        '"Position" -> Job Title\n',
    );
    expect(linkedin.stderr).toContain('Ignoring column: "Connected On"\n');
    expect(stored('ada@li.example')!.values).toMatchObject({
      fFirstNm: 'Ada',
      fLinkdIn: 'https://www.linkedin.com/in/ada-l',
      fJobTitl: 'Analyst',
    });

    put(
      'contacts.csv',
      'Given Name,Family Name,E-mail 1 - Value,Organization 1 - Name,Organization 1 - Title\n' +
        'Grace,Hopper,grace@g.example,Navy,Rear Admiral\n',
    );
    expect((await importFile('contacts.csv')).code).toBe(0);
    expect(stored('grace@g.example')!.values).toMatchObject({
      fFirstNm: 'Grace',
      fLastNm: 'Hopper',
      fCompany: 'Navy',
      fJobTitl: 'Rear Admiral',
    });

    put(
      'outlook.csv',
      'First Name,Last Name,E-mail Address,Business Phone,Web Page\nAlan,Turing,alan@o.example,+44 1,a.example\n',
    );
    expect((await importFile('outlook.csv')).code).toBe(0);
    expect(stored('alan@o.example')!.values).toMatchObject({ fPhoneNo: '+44 1', fWebsite: 'a.example' });
  });

  it('takes a real Apollo export whole: per row the first phone that is not empty, in the documented order', async () => {
    const name = 'apollo-contacts-export-coding-cooking.csv';
    const bytes = readFileSync(new URL(`../../fixtures/corpora/exports/${name}`, import.meta.url));
    put(name, bytes);
    const apollo = await importFile(name);
    expect(apollo.code).toBe(0);
    const order = ['Work Direct Phone', 'Mobile Phone', 'First Phone', 'Corporate Phone', 'Other Phone', 'Home Phone'];
    expect(apollo.stderr).toContain(
      'Apollo export: columns matched by known export headers: "Title" -> Job Title, "Departments" -> Department, ' +
        `${order.map((c) => `"${c}"`).join(' or ')} -> Phone Number (per row, the first not empty), ` +
        '"Person Linkedin Url" -> LinkedIn\n',
    );
    const rows: Array<Record<string, string>> = parseCsv(bytes, { columns: true });
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      const first = order.map((column) => row[column]!.trim()).find(Boolean) ?? '';
      expect({ email: row.Email, phone: stored(row.Email!)!.values.fPhoneNo ?? '' }).toEqual({
        email: row.Email,
        phone: first.replace(/^'/, ''),
      });
    }
    // Apollo's Work Direct Phone is empty in every row here, and 7 of 8 rows have a number elsewhere.
    expect(rows.filter((row) => stored(row.Email!)!.values.fPhoneNo).length).toBe(7);
    expect(stored('person2@example.com.au')!.values.fPhoneNo).toBe('+61 555 555 555');
  });

  it('suggests a follow-up that keeps the --map flags, and that follow-up works', async () => {
    put('mapped.csv', 'Work Email,First Name,Notes\nm1@inputs.example,Mo,n\n');
    const argv = ['mapped.csv', '--map', 'Work Email=Email', '--map', 'Notes=', '--no-wait'];
    const first = await run(['prospects', 'import', ...argv], { env: sb.env, cwd: dir });
    expect(first.code).toBe(0);
    const followUp = /Follow up with: (.*)$/m.exec(first.stderr)![1]!;
    expect(followUp).toBe("outreach prospects import mapped.csv --map 'Work Email=Email' --map Notes= --resume --wait");
    const again = await run(
      ['prospects', 'import', 'mapped.csv', '--map', 'Work Email=Email', '--map', 'Notes=', '--resume', '--wait'],
      {
        env: sb.env,
        cwd: dir,
      },
    );
    expect(again.code).toBe(0);
  });

  it('keeps the email one column: a later email of an export is set aside, never a fallback', async () => {
    put(
      'g.csv',
      'Given Name,Family Name,E-mail 1 - Value,E-mail 2 - Value\nAnn,A,,ann2@g.example\nBob,B,bob1@g.example,bob2@g.example\n',
    );
    const result = await importFile('g.csv');
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('"E-mail 1 - Value" -> Email');
    expect(result.stderr).not.toContain('"E-mail 2 - Value" -> Email');
    expect(result.stderr).toContain('Ignoring column: "E-mail 2 - Value"');
    expect(stored('bob1@g.example')).toBeDefined();
    expect(stored('ann2@g.example')).toBeUndefined();
    expect(readFileSync(join(dir, 'g.rejected.csv'), 'utf8').split('\n')[1]).toBe(
      '2,empty email,Ann,A,,ann2@g.example',
    );
  });

  it('lets --map choose the one column for a field that export columns would feed', async () => {
    const name = 'apollo-contacts-export-coding-cooking.csv';
    put(name, readFileSync(new URL(`../../fixtures/corpora/exports/${name}`, import.meta.url)));
    const result = await importFile(name, '--map', 'Corporate Phone=Phone Number');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain('-> Phone Number');
    // person2 has a mobile and a corporate phone: the corporate one, as asked.
    expect(stored('person2@example.com.au')!.values.fPhoneNo).toBe('+61 5 5555 5555');
    expect(stored('person5@example.com.au')!.values.fPhoneNo ?? '').toBe('');
  });

  it('never stops an export it recognises on two phone columns, whichever two', async () => {
    put(
      'two-phones.csv',
      'First Name,Email,Corporate Phone,Home Phone,Apollo Contact Id\nKay,kay@ap.example,,+1 556,a1\n',
    );
    const result = await importFile('two-phones.csv', '--save-mapping', 'two.map.json');
    expect(result.code).toBe(0);
    expect(stored('kay@ap.example')!.values.fPhoneNo).toBe('+1 556');
    // The saved mapping keeps both columns in the order they are tried, and --mapping reads them back so.
    expect(JSON.parse(readFileSync(join(dir, 'two.map.json'), 'utf8'))).toEqual({
      'First Name': 'First Name',
      Email: 'Email',
      'Corporate Phone': 'Phone Number',
      'Home Phone': 'Phone Number',
      'Apollo Contact Id': null,
    });
    put(
      'two-phones-b.csv',
      'First Name,Email,Corporate Phone,Home Phone,Apollo Contact Id\nJo,jo@ap.example,+1 7,+1 8,a2\n',
    );
    expect((await importFile('two-phones-b.csv', '--mapping', 'two.map.json')).code).toBe(0);
    expect(stored('jo@ap.example')!.values.fPhoneNo).toBe('+1 7');
  });

  it('imports full header rows of Outlook, Google Contacts, HubSpot, Salesforce and Apollo exports as they are', async () => {
    const exports: Array<[file: string, header: string, row: string, email: string, values: Record<string, string>]> = [
      [
        'outlook-full.csv',
        'First Name,Middle Name,Last Name,Title,Suffix,E-mail Address,E-mail 2 Address,Home Phone,Business Phone,' +
          'Mobile Phone,Job Title,Department,Company,Business Street,Business City,Business State,' +
          'Business Country/Region,Personal Web Page,Web Page,Notes',
        'Ada,,Lovelace,Ms,,ada@ol.example,ada@home.example,1,2,3,Analyst,R&D,Engines,1 St,London,LDN,UK,p.example,w.example,n',
        'ada@ol.example',
        { fJobTitl: 'Analyst', fPhoneNo: '2', fCountry: 'UK', fWebsite: 'w.example', fDeptxxx: 'R&D' },
      ],
      [
        'google-full.csv',
        'First Name,Middle Name,Last Name,Nickname,Organization Name,Organization Title,Organization Department,' +
          'Labels,E-mail 1 - Label,E-mail 1 - Value,E-mail 2 - Label,E-mail 2 - Value,Phone 1 - Label,Phone 1 - Value',
        'Grace,,Hopper,,Navy,Admiral,Ops,* myContacts,* Work,grace@gg.example,Home,g@home.example,Mobile,+1 9',
        'grace@gg.example',
        { fCompany: 'Navy', fJobTitl: 'Admiral', fDeptxxx: 'Ops', fPhoneNo: '+1 9' },
      ],
      [
        'hubspot.csv',
        'Record ID,First Name,Last Name,Email,Phone Number,Company Name,Job Title,Lifecycle Stage,Contact owner,' +
          'City,State/Region,Country/Region,Website URL',
        '101,Kim,Park,kim@hs.example,555,Hs Co,CTO,lead,Bob,Austin,TX,United States,hs.example',
        'kim@hs.example',
        { fCompany: 'Hs Co', fStatexx: 'TX', fCountry: 'United States', fWebsite: 'hs.example' },
      ],
      [
        'salesforce.csv',
        'First Name,Last Name,Title,Account Name,Mailing Street,Mailing City,Mailing State/Province,Mailing Country,' +
          'Phone,Mobile,Email,Lead Source',
        'Lin,Wu,VP Sales,Sf Inc,2 Rd,Paris,IDF,France,777,888,lin@sf.example,Web',
        'lin@sf.example',
        { fJobTitl: 'VP Sales', fCompany: 'Sf Inc', fCityxxx: 'Paris', fStatexx: 'IDF', fPhoneNo: '777' },
      ],
      [
        'apollo-full.csv',
        'First Name,Last Name,Title,Company,Company Name for Emails,Email,Email Status,Seniority,Departments,' +
          'Work Direct Phone,Home Phone,Mobile Phone,Corporate Phone,# Employees,Industry,Person Linkedin Url,Website,' +
          'Company Linkedin Url,City,State,Country,Apollo Contact Id,Secondary Email,Tertiary Email',
        'Max,Roe,CEO,Ap Co,Ap,max@ap.example,Verified,c_suite,Executive,1,2,3,4,50,Software,' +
          'https://www.linkedin.com/in/max,ap.example,x,Berlin,BE,Germany,id1,max@two.example,',
        'max@ap.example',
        { fJobTitl: 'CEO', fCompany: 'Ap Co', fPhoneNo: '1', fDeptxxx: 'Executive', fIndustr: 'Software' },
      ],
    ];
    for (const [file, header, row, email, values] of exports) {
      put(file, `${header}\n${row}\n`);
      const result = await importFile(file);
      expect({ file, code: result.code }).toEqual({ file, code: 0 });
      expect(stored(email)!.values).toMatchObject(values);
    }
  });

  it('stops when two columns could be the email, naming both and the flag; --map picks one', async () => {
    put('two.csv', 'Email,Personal Email,First Name\nwork@two.example,home@two.example,Kim\n');
    const stopped = await importFile('two.csv');
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toBe(
      'error: two.csv: 2 columns could be the email: "Email", "Personal Email"\n' +
        'hint: Pick the prospect\'s email with --map "Email=Email" (the other email columns are then ignored).\n',
    );
    expect(importPosts()).toBe(0);
    const picked = await importFile('two.csv', '--map', 'Personal Email=Email');
    expect(picked.code).toBe(0);
    expect(picked.stderr).toContain('Ignoring column: "Email"\n');
    expect(stored('home@two.example')).toBeDefined();
    expect(stored('work@two.example')).toBeUndefined();
  });

  it('asks which column is the email on a terminal', async () => {
    put('ask.csv', 'Work Email,Personal Email\nw@ask.example,s@ask.example\n');
    const asked = await run(['prospects', 'import', 'ask.csv', '--wait'], {
      env: sb.env,
      cwd: dir,
      stdinIsTTY: true,
      stderrIsTTY: true,
      answers: ['Personal Email'],
    });
    expect(asked.code).toBe(0);
    expect(asked.stderr).toContain('Several columns could be the email. Which one is the prospect’s?');
    expect(stored('s@ask.example')).toBeDefined();
    expect(stored('w@ask.example')).toBeUndefined();
  });
});
