// outreach prospects import through the real CLI against an in-process sandbox: output, files, exit codes, state.
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { parse, run } from '../helpers/run.js';
import { acceptedCount, cutJournal } from '../helpers/journal.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state, prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-import-');
  for (const name of ['sample.csv', 'messy.csv'])
    copyFileSync(new URL(`../../fixtures/prospects/${name}`, import.meta.url), join(dir, name));
});
afterEach(() => sb.close());

const importPosts = () =>
  sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/prospects/import')).length;
const file = (name: string) => readFileSync(join(dir, name), 'utf8');
const importIn = (argv: string[], extra: { stdin?: string; stderrIsTTY?: boolean } = {}) =>
  run(['prospects', 'import', ...argv], { env: sb.env, cwd: dir, ...extra });

describe('prospects import', () => {
  it('every row failing at the service is exit 1; a clean run after it leaves no failed file of the old run', async () => {
    writeFileSync(join(dir, 'z.csv'), 'email,Seats\nz1@x.example,abc\nz2@x.example,def\n');
    const failed = await importIn(['z.csv', '--wait']);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('error: 2 of 2 rows sent failed at the service\n');
    expect(existsSync(join(dir, 'z.failed.csv'))).toBe(true);
    writeFileSync(join(dir, 'z.csv'), 'email,Seats\nz3@x.example,12\n');
    expect((await importIn(['z.csv', '--wait'])).code).toBe(0);
    expect(existsSync(join(dir, 'z.failed.csv'))).toBe(false);
  });

  it('sent without waiting, with rows rejected: the hint also says how to fetch the outcome of the rest', async () => {
    writeFileSync(join(dir, 'some.csv'), 'email\nok1@x.example\nnot-an-email\n');
    const result = await importIn(['some.csv', '--no-wait']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /\nhint: Each row of .*some\.rejected\.csv says why; fix them and import that file with --ignore-unknown \(its row and reason columns are not fields\)\. Follow up with: outreach .*some\.csv --resume --wait for the outcome of the rows sent\.\n$/,
    );
    // Fixed: the run that rejects nothing leaves no rejected file of the run before (its rows would mislead).
    expect(existsSync(join(dir, 'some.rejected.csv'))).toBe(true);
    writeFileSync(join(dir, 'some.csv'), 'email\nok1@x.example\nok2@x.example\n');
    expect((await importIn(['some.csv', '--no-wait', '--restart'])).code).toBe(0);
    expect(existsSync(join(dir, 'some.rejected.csv'))).toBe(false);
  });

  it('a file with a reason column of its own: the rejected file names ours apart, and fixed it imports', async () => {
    writeFileSync(join(dir, 'why.csv'), 'email,Reason\nok@x.example,met at a fair\nbad-email,cold list\n');
    expect((await importIn(['why.csv', '--no-wait', '--ignore-unknown'])).code).toBe(3);
    const [header, row] = readFileSync(join(dir, 'why.rejected.csv'), 'utf8').split('\n');
    expect(header).toBe('outreach_row,outreach_reason,email,Reason');
    expect(row).toMatch(/^3,.*,bad-email,cold list$/);
    writeFileSync(join(dir, 'fixed.csv'), `${header}\n${row!.replace('bad-email', 'good@x.example')}\n`);
    expect((await importIn(['fixed.csv', '--no-wait', '--ignore-unknown'])).code).toBe(0);
  });

  it('imports a clean file, waits, and writes the results in input order', async () => {
    const result = await importIn(['sample.csv', '--wait']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `Imported sample.csv: 25 rows read, 25 sent in 1 chunk, 0 rejected, 25 succeeded, 0 unchanged, 0 failed. Reports: ${join(dir, 'sample.results.csv')}\n`,
    );
    // Finished with nothing to fix: no header-only failed.csv, and no journal left behind.
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith('sample.'))
        .sort(),
    ).toEqual(['sample.csv', 'sample.results.csv']);
    const results = file('sample.results.csv').split('\n');
    expect(results[0]).toBe('row,email,outcome,reason');
    expect(results[1]).toBe('2,amelie.dubois@acme.example,succeeded,');
    expect(results).toHaveLength(27);
    const dmitri = prospectByEmail(sb, 'dmitri.ivanov@umbrella.example')!;
    expect(dmitri.values).toMatchObject({
      fFirstNm: 'Dmitri',
      fCompany: 'Umbrella "Labs"',
      cSeats00: '14',
      cPainPnt: 'Loves long emails,\nsplit over two lines',
    });
  });

  it('sorts every row of a messy file into succeeded, failed and rejected, with reasons, and exits 3', async () => {
    const result = await importIn(['messy.csv', '--wait', '--json']);
    expect(result.code).toBe(3);
    // stdout is the JSON; a non-zero exit still leaves one line for people on stderr
    expect(result.stderr).toBe(
      `Imported messy.csv: 17 rows read, 13 sent in 1 chunk, 4 rejected, 10 succeeded, 0 unchanged, 3 failed. Reports: ${join(dir, 'messy.rejected.csv')}, ${join(dir, 'messy.results.csv')}, ${join(dir, 'messy.failed.csv')}\n` +
        'error: 4 of 17 rows rejected; 3 of 13 rows sent failed at the service\n' +
        `hint: ${join(dir, 'messy.failed.csv')} holds the rows to fix, in your own columns, and ${join(dir, 'messy.results.csv')} says why for each; fix them and import that file.\n`,
    );
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      file: 'messy.csv',
      mode: 'async',
      total: 17,
      sent: 13,
      rejected: 4,
      succeeded: 10,
      unchanged: 0,
      failed: 3,
      chunks: 1,
    });
    expect(summary.requestIds).toHaveLength(1);
    expect(summary.files).toEqual({
      rejected: join(dir, 'messy.rejected.csv'),
      results: join(dir, 'messy.results.csv'),
      failed: join(dir, 'messy.failed.csv'),
    });
    expect(file('messy.rejected.csv')).toBe(
      'row,reason,First Name,Last Name,Email,Company,Job Title,Seats,Pain Point\n' +
        '15,duplicate email: first seen on row 4,Dup,Licate,CHLOE.MOREAU@INITECH.EXAMPLE,Globex,CTO,9,\n' +
        '16,empty email,No,Email,,Nowhere,Intern,1,\n' +
        '17,invalid email: missing @,Bad,Email,not-an-email,Nowhere,Intern,1,\n' +
        '19,"expected 7 columns, found 8",Too,Many,too.many@x.example,A,B,1,,extra\n',
    );
    expect(file('messy.results.csv').split('\n').slice(11, 18)).toEqual([
      '13,bounced@example.com,failed,10700 bounced prospect',
      '14,unsubscribed@example.com,failed,10800 unsubscribed prospect',
      '15,CHLOE.MOREAU@INITECH.EXAMPLE,rejected,duplicate email: first seen on row 4',
      '16,,rejected,empty email',
      '17,not-an-email,rejected,invalid email: missing @',
      '18,many.seats@hooli.example,failed,"10300 Seats: ""lots"" is not a number"',
      '19,too.many@x.example,rejected,"expected 7 columns, found 8"',
    ]);
    expect(file('messy.failed.csv').split('\n')).toHaveLength(9);
    expect(file('messy.failed.csv').split('\n')[1]).toBe('Bob,Bounce,bounced@example.com,Old Co,CEO,3,');
  });

  it("keeps the input's byte-order mark and CRLF line endings in the files of its rows (as Excel on Windows saves)", async () => {
    const excel = `\uFEFF${file('messy.csv').replace(/\r?\n/g, '\r\n')}`;
    writeFileSync(join(dir, 'excel.csv'), excel);
    const result = await importIn(['excel.csv', '--wait', '-q']);
    expect(result.code).toBe(3);
    for (const name of ['excel.rejected.csv', 'excel.failed.csv']) {
      const text = file(name);
      expect(text.startsWith('\uFEFF')).toBe(true);
      expect(text.endsWith('\r\n')).toBe(true);
      expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    }
    expect(file('excel.rejected.csv').split('\r\n')[1]).toBe(
      '15,duplicate email: first seen on row 4,Dup,Licate,CHLOE.MOREAU@INITECH.EXAMPLE,Globex,CTO,9,',
    );
    // The report of outcomes is ours, not the user's rows: plain UTF-8 with \n.
    expect(file('excel.results.csv').startsWith('row,email,outcome,reason\n')).toBe(true);
  });

  it('counts prospects that noUpdate left alone as unchanged, not failed', async () => {
    await importIn(['sample.csv', '--wait', '-q']);
    const again = await importIn(['sample.csv', '--wait', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ succeeded: 0, unchanged: 25, failed: 0 });
    expect(file('sample.results.csv').split('\n')[1]).toBe(
      '2,amelie.dubois@acme.example,unchanged,10400 nothing to update',
    );
  });

  it('stops on unknown columns, naming them with the closest fields, before sending anything', async () => {
    writeFileSync(join(dir, 'odd.csv'), 'Emial,Frist Name,Shoe Size\na@x.example,A,42\n');
    const result = await importIn(['odd.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: odd.csv: 3 columns match no field:\n' +
        '  "Emial" — closest fields: Email\n' +
        '  "Frist Name" — closest fields: First Name\n' +
        '  "Shoe Size" — no similar field\n' +
        'hint: Map them with --map "COLUMN=Field label", skip them with --ignore-unknown, or create the fields in the app first.\n',
    );
    expect(importPosts()).toBe(0);
  });

  it('maps columns with --map, ignores with --ignore-unknown, and saves the mapping', async () => {
    writeFileSync(join(dir, 'odd.csv'), 'Work Email,first_name,Shoe Size\na@x.example,Ann,42\n');
    const result = await importIn([
      'odd.csv',
      '--map',
      'Work Email=Email',
      '--ignore-unknown',
      '--save-mapping',
      'odd.map.json',
      '--no-wait',
    ]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Ignoring column: "Shoe Size"\n');
    expect(JSON.parse(file('odd.map.json'))).toEqual({
      'Work Email': 'Email',
      first_name: 'First Name',
      'Shoe Size': null,
    });
    expect(prospectByEmail(sb, 'a@x.example')!.values.fFirstNm).toBe('Ann');
    const reused = await importIn(['odd.csv', '--mapping', 'odd.map.json', '--no-wait', '--restart', '-q']);
    expect(reused.stderr).toBe('');
    expect(reused.code).toBe(0);
  });

  it('needs an Email column', async () => {
    writeFileSync(join(dir, 'noemail.csv'), 'First Name\nAnn\n');
    const result = await importIn(['noemail.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: noemail.csv: no column maps to the Email field, and every prospect needs one',
    );
  });

  it('--strict sends nothing when any row is bad, and writes the rejects', async () => {
    const result = await importIn(['messy.csv', '--strict']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --strict: 4 of 17 rows failed the checks; nothing was sent');
    expect(existsSync(join(dir, 'messy.rejected.csv'))).toBe(true);
    expect(importPosts()).toBe(0);
    // Rehearsed, it says what the run would do.
    const rehearsed = await importIn(['messy.csv', '--strict', '--dry-run']);
    expect(rehearsed.code).toBe(2);
    expect(rehearsed.stderr).toContain('error: --strict: 4 of 17 rows failed the checks; nothing would be sent');
  });

  it('--dry-run checks and reports only', async () => {
    const result = await importIn(['messy.csv', '--dry-run']);
    expect(result.code).toBe(3);
    expect(result.stderr).toBe(
      `Checked messy.csv: 17 rows read, 13 would be sent, 4 rejected (0 on do-not-contact lists: "Global do-not-contact" 0, "Current customers" 0). Reports: ${join(dir, 'messy.dry-run.rejected.csv')}\n` +
        'error: 4 of 17 rows rejected\n' +
        `hint: Each row of ${join(dir, 'messy.dry-run.rejected.csv')} says why; fix them and import that file with --ignore-unknown (its row and reason columns are not fields).\n`,
    );
    expect(importPosts()).toBe(0);
  });

  it('exits 2 when every row is rejected', async () => {
    writeFileSync(join(dir, 'bad.csv'), 'Email\nnope\nalso-nope\n');
    const result = await importIn(['bad.csv', '--no-wait']);
    expect(result.code).toBe(2);
    expect(importPosts()).toBe(0);
  });

  it('reads the delimiter that Excel\'s first line "sep=;" names, and counts rows by their file line', async () => {
    writeFileSync(join(dir, 'excel.csv'), 'sep=;\r\nEmail;First Name\r\nann@x.example;Ann\r\nnot-an-email;Bad\r\n');
    const result = await importIn(['excel.csv', '--no-wait']);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^Imported excel\.csv: 2 rows read, 1 sent in 1 chunk, 1 rejected/);
    // Given back as Excel wrote it: its sep= line, its delimiter, its line endings.
    expect(readFileSync(join(dir, 'excel.rejected.csv'), 'utf8')).toBe(
      'sep=;\r\nrow;reason;Email;First Name\r\n4;invalid email: missing @;not-an-email;Bad\r\n',
    );
  });

  it('tells two columns of one name apart: the second is NAME#2 to --map', async () => {
    writeFileSync(join(dir, 'twice.csv'), 'Email,First Name,Email\n,Ann,ann@twice.example\n');
    const asked = await importIn(['twice.csv', '--no-wait']);
    expect([asked.code, asked.stderr]).toEqual([
      2,
      'error: twice.csv: 2 columns could be the email: "Email", "Email#2"\n' +
        'hint: Pick the prospect\'s email with --map "Email=Email" (the other email columns are then ignored).\n',
    ]);
    const second = await importIn(['twice.csv', '--no-wait', '--map', 'Email#2=Email']);
    expect(second.code).toBe(0);
    expect(prospectByEmail(sb, 'ann@twice.example')!.values).toMatchObject({ fFirstNm: 'Ann' });
    const firstIgnored = await importIn(['twice.csv', '--no-wait', '--restart', '--map', 'Email=']);
    expect(firstIgnored.code).toBe(0);
  });

  it("passes over a spreadsheet's empty rows (delimiters alone) as blank lines: not rows, not rejected", async () => {
    writeFileSync(
      join(dir, 'sheet.csv'),
      'Email;First Name\r\nann@x.example;Ann\r\n;\r\n ; \r\nbob@x.example;Bob\r\n;;\r\n',
    );
    const result = await importIn(['sheet.csv', '--no-wait']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^Imported sheet\.csv: 2 rows read, 2 sent in 1 chunk, 0 rejected/);
  });

  it('takes an address written with its domain in Unicode and in ASCII (IDNA) for one mailbox: a duplicate', async () => {
    writeFileSync(
      join(dir, 'idn.csv'),
      'email,First Name\nann@müller.example,A\nANN@MÜLLER.EXAMPLE,B\nann@xn--mller-kva.example,C\n',
    );
    const result = await importIn(['idn.csv', '--dry-run', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 3, wouldSend: 1, rejected: 2 });
    expect(file('idn.dry-run.rejected.csv').split('\n').slice(1, 3)).toEqual([
      '3,duplicate email: first seen on row 2,ANN@MÜLLER.EXAMPLE,B',
      '4,duplicate email: first seen on row 2,ann@xn--mller-kva.example,C',
    ]);
  });

  it('reads Windows-1252 with ";" and UTF-16 with tabs', async () => {
    writeFileSync(
      join(dir, 'w.csv'),
      iconv.encode('Email;First Name;Company\nrene@x.example;René;Café “Zürich”, GmbH\nbad;Jürgen;Müller\n', 'win1252'),
    );
    expect((await importIn(['w.csv', '--encoding', 'windows-1252', '--no-wait', '-q'])).code).toBe(3);
    expect(prospectByEmail(sb, 'rene@x.example')!.values).toMatchObject({
      fFirstNm: 'René',
      fCompany: 'Café “Zürich”, GmbH',
    });
    // The rows to fix come back as the file was: Windows-1252 (Excel opens it as it opened the input), ";".
    expect(readFileSync(join(dir, 'w.rejected.csv'))).toEqual(
      iconv.encode('row;reason;Email;First Name;Company\n3;invalid email: missing @;bad;Jürgen;Müller\n', 'win1252'),
    );
    writeFileSync(
      join(dir, 'u.csv'),
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        iconv.encode('Email\tFirst Name\nyuki@x.example\t雪\nbad\t花\n', 'utf16le'),
      ]),
    );
    expect((await importIn(['u.csv', '--no-wait', '-q'])).code).toBe(3);
    expect(prospectByEmail(sb, 'yuki@x.example')!.values.fFirstNm).toBe('雪');
    expect(readFileSync(join(dir, 'u.rejected.csv'))).toEqual(
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        iconv.encode('row\treason\tEmail\tFirst Name\n3\tinvalid email: missing @\tbad\t花\n', 'utf16le'),
      ]),
    );
  });

  it('reads a file far larger than one read buffer, start to end', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `person${i}@x.example,"Name, ${i}"`).join('\n');
    writeFileSync(join(dir, 'big.csv'), `Email,Company\n${rows}\n`);
    const result = await importIn(['big.csv', '--dry-run', '--json']);
    expect(result.code).toBe(0);
    // The first chunk holds 2,000 rows, each next one half as many again (up to 40,000): 2,000 ... 10,125.
    expect(JSON.parse(result.stdout)).toMatchObject({
      total: 20_000,
      rejected: 0,
      wouldSend: 20_000,
      sent: 0,
      chunks: 5,
    });
  });

  it('--ndjson gives the summary on one line; --csv, which has no rows to give, says the outcome on stderr', async () => {
    writeFileSync(join(dir, 'two.csv'), 'Email\na@two.example\nb@two.example\n');
    const ndjson = await importIn(['two.csv', '--dry-run', '--ndjson']);
    expect(ndjson.code).toBe(0);
    expect(ndjson.stdout.split('\n')).toHaveLength(2);
    expect(JSON.parse(ndjson.stdout)).toMatchObject({
      file: 'two.csv',
      mode: 'dry-run',
      total: 2,
      rejected: 0,
      wouldSend: 2,
    });
    const csv = await importIn(['two.csv', '--dry-run', '--csv']);
    expect([csv.code, csv.stdout]).toEqual([0, '']);
    expect(csv.stderr).toMatch(/^Checked two\.csv: 2 rows read, 2 would be sent, 0 rejected/);
    expect((await importIn(['two.csv', '--dry-run', '--csv', '-q'])).stderr).toBe('');
  });

  it('sends small chunks first, so the service starts on them while the rest is read: 2,000 rows, then half as many again each time', async () => {
    const rows = Array.from({ length: 35_000 }, (_, i) => `ramp${i}@x.example,Ramp ${i}`).join('\n');
    writeFileSync(join(dir, 'ramp.csv'), `Email,Company\n${rows}\n`);
    const result = await importIn(['ramp.csv', '--no-wait', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 35_000, sent: 35_000, chunks: 6 });
    // Two chunks are under way at once, so the service may finish the last (small) one before the one before it.
    expect(
      state(sb)
        .imports.slice(-6)
        .map((job) => job.total)
        .sort((a, b) => a - b),
    ).toEqual([2_000, 3_000, 4_500, 6_750, 8_625, 10_125]);
  });

  it('resumes an import the previous version started, with the chunks it planned (doubling from 4,000)', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) => `old${i}@x.example,Old ${i}`).join('\n');
    writeFileSync(join(dir, 'old.csv'), `Email,Company\n${rows}\n`);
    // Version 0.1.0 sent 4,000 rows first, then twice as many each time, and recorded only the first size: its journal
    // after one accepted chunk, made here from a run of 4,000-row chunks whose header is then written as it wrote it.
    expect((await importIn(['old.csv', '--chunk-size', '4000', '--no-wait', '-q'])).code).toBe(0);
    const path = join(dir, 'old.import-journal');
    cutJournal(path, 1);
    const [header, ...rest] = readFileSync(path, 'utf8').trim().split('\n');
    const parsed = JSON.parse(header!) as { settings: Record<string, unknown> };
    expect(parsed.settings).not.toHaveProperty('chunkGrowth');
    // In the order the header has them: the first size right after the largest.
    parsed.settings = Object.fromEntries(
      Object.entries(parsed.settings).flatMap(([key, value]) =>
        key === 'chunkRows'
          ? [
              [key, 40_000],
              ['firstChunkRows', 4_000],
            ]
          : [[key, value]],
      ),
    );
    writeFileSync(path, `${[JSON.stringify(parsed), ...rest].join('\n')}\n`);
    const before = state(sb).imports.length;
    const resumed = await importIn(['old.csv', '--no-wait', '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ total: 12_000, chunks: 2 });
    expect(
      state(sb)
        .imports.slice(before)
        .map((job) => job.total),
    ).toEqual([8_000]);
  });

  it('reads stdin with -', async () => {
    const result = await importIn(['-', '--no-wait', '--json'], { stdin: 'Email,Company\npiped@x.example,Pipe Co\n' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ file: '-', total: 1, sent: 1 });
    expect(prospectByEmail(sb, 'piped@x.example')).toBeDefined();
  });

  it('splits into chunks of --chunk-size, sends tags, step and verification', async () => {
    const result = await importIn([
      'sample.csv',
      '--chunk-size',
      '10',
      '--tags',
      'webinar, q4',
      '--step',
      'stC1mail',
      '--verify',
      '--no-wait',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      chunks: 3,
      sent: 25,
      requestIds: [expect.any(String), expect.any(String), expect.any(String)],
    });
    expect(importPosts()).toBe(3);
    const amelie = prospectByEmail(sb, 'amelie.dubois@acme.example')!;
    expect(amelie).toMatchObject({
      tags: ['webinar', 'q4'],
      verificationStatus: 'inProgress',
      sequences: [{ sequenceId: 'sqEvents3', stepId: 'stC1mail', state: 'active' }],
    });
  });

  it('--sync reads the status of each row from the answer', async () => {
    const result = await importIn(['messy.csv', '--sync', '--json']);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({
      mode: 'sync',
      succeeded: 10,
      failed: 3,
      rejected: 4,
      requestIds: [],
    });
    expect(file('messy.results.csv').split('\n')[11]).toBe('13,bounced@example.com,failed,10700 bounced prospect');
  });

  it('refuses an unfinished journal unless --resume or --restart; one with nothing accepted just starts over', async () => {
    const header = '{"journal":"outreach-import","version":1,"input":{"path":"x"},"settings":{}}\n';
    writeFileSync(join(dir, 'sample.import-journal'), header);
    expect((await importIn(['sample.csv', '--no-wait'])).code).toBe(0);
    writeFileSync(
      join(dir, 'sample.import-journal'),
      `${header}{"chunk":0,"firstRow":2,"lastRow":6,"rows":5,"sha256":"cc","requestId":"r1"}\n`,
    );
    const result = await importIn(['sample.csv']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: an unfinished import of this file is recorded in');
    expect(result.stderr).toContain('hint: Add --resume to send only the rest, or --restart to send everything again.');
  });

  it('resumes after an interruption without re-sending accepted chunks, and a finished import sends nothing', async () => {
    const first = await importIn(
      ['sample.csv', '--chunk-size', '5', '--concurrency', '1', '--no-wait', '-q', '--max-retries', '0'],
      {},
    );
    expect(first.code).toBe(0);
    // Keep only the first two accepted chunks, as if the run had been killed after them.
    cutJournal(join(dir, 'sample.import-journal'), 2);
    const before = importPosts();
    const resumed = await importIn([
      'sample.csv',
      '--chunk-size',
      '5',
      '--concurrency',
      '1',
      '--resume',
      '--wait',
      '--json',
    ]);
    expect(resumed.code).toBe(0);
    expect(importPosts() - before).toBe(3);
    // The re-sent chunks met the prospects the first run created: unchanged, as noUpdate says.
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 25, chunks: 5, succeeded: 10, unchanged: 15 });
    const again = await importIn([
      'sample.csv',
      '--chunk-size',
      '5',
      '--concurrency',
      '1',
      '--resume',
      '--no-wait',
      '-q',
    ]);
    // The finished import removed its journal: there is nothing to resume, and it says so.
    expect(existsSync(join(dir, 'sample.import-journal'))).toBe(false);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(
      /^error: --resume: no journal at .*sample\.import-journal\nhint: A finished job removes/,
    );
    expect(importPosts() - before).toBe(3);
  });

  it('sends an accepted chunk again on --resume when its rows were edited since, rebuilt from the file as it is', async () => {
    const argv = ['sample.csv', '--chunk-size', '5', '--concurrency', '1', '--no-wait', '-q'];
    expect((await importIn(argv)).code).toBe(0);
    cutJournal(join(dir, 'sample.import-journal'), 2);
    // Giulia is in the second chunk, which the journal says was accepted.
    writeFileSync(join(dir, 'sample.csv'), file('sample.csv').replace('giulia.rossi@', 'g.rossi@'));
    const before = importPosts();
    const resumed = await importIn([...argv, '--resume']);
    expect(resumed.code).toBe(0);
    expect(importPosts() - before).toBe(4); // the edited chunk, then the three the journal lacked
    expect(prospectByEmail(sb, 'g.rossi@stark.example')?.email).toBe('g.rossi@stark.example');
  });

  it('refuses --resume with different flags', async () => {
    await importIn(['sample.csv', '--no-wait', '-q']);
    const result = await importIn(['sample.csv', '--conflict', 'upsert', '--resume']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'error: --resume: the flags or the column mapping differ from the run recorded in the journal (here: --conflict)',
    );
  });

  it('leaves no half-written report and no temporary file when interrupted', async () => {
    await sb.close();
    sb = await startTestSandbox({ latencyMs: 300 });
    const result = await run(
      ['prospects', 'import', 'messy.csv', '--wait', '--chunk-size', '3', '--concurrency', '1'],
      {
        env: sb.env,
        cwd: dir,
        abortWhen: () =>
          sb.sandbox.requestLog.filter((r) => r.path === '/v1/prospects/import-with-field-name').length >= 2,
      },
    );
    expect(result.stderr).toBe(
      'stopping: nothing new is sent; waiting up to 30s for the requests under way to be answered (Ctrl-C again to stop at once)\n' +
        'interrupted\n' +
        // The test clock's 30 s pass at once: the request in flight is cut, and that is said.
        'hint: Requests still unanswered after 30s were cut; --resume sends them again.\n' +
        'Accepted so far: 3 rows in 1 chunk (not sent again).\n' +
        'To continue: outreach prospects import messy.csv --wait --chunk-size 3 --concurrency 1 --resume\n',
    );
    expect(result.code).toBe(130);
    expect(readdirSync(dir).sort()).toEqual(['messy.csv', 'messy.import-journal', 'sample.csv']);
    // What was accepted before Ctrl-C is journaled, so --resume continues from there.
    const accepted = acceptedCount(file('messy.import-journal'));
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(5);
  });
});

describe('Ctrl-C while an import waits for its outcome', () => {
  it('says every row was accepted, and that their outcome is not known yet', async () => {
    await sb.close();
    sb = await startTestSandbox({ latencyMs: 300 });
    const result = await run(['prospects', 'import', 'sample.csv', '--wait'], {
      env: sb.env,
      cwd: dir,
      abortWhen: () => sb.sandbox.requestLog.some((r) => r.path.startsWith('/v1/prospects/import-status/')),
    });
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(
      'Accepted: 25 rows in 1 chunk, every one (not sent again); their outcome is not known yet.\n' +
        'To continue: outreach prospects import sample.csv --wait --resume\n',
    );
  });
});

describe('prospects import over a journal it cannot read', () => {
  it('says how to start over, and --restart does, replacing the journal', async () => {
    const journal = join(dir, 'sample.import-journal');
    writeFileSync(journal, '{"journal":"outreach","version":9,"job":"import"}\n');
    const plain = await importIn(['sample.csv', '--no-wait']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      `error: ${journal}: is not a journal this version of outreach reads (version 9)\n` +
        'hint: Start over with --restart (the journal is replaced), or move the file aside.\n',
    );
    const restarted = await importIn(['sample.csv', '--no-wait', '--restart']);
    expect(restarted.code).toBe(0);
    expect(JSON.parse(file('sample.import-journal').split('\n')[0]!)).toMatchObject({ version: 2, job: 'import' });
  });
});

describe('prospects import flags', () => {
  it('parses the flags into options', async () => {
    const parsed = await parse([
      'prospects',
      'import',
      'x.csv',
      '--delimiter',
      'tab',
      '--map',
      'A=Email',
      '--map',
      'B=',
      '--conflict',
      'upsert',
      '--tags',
      'a,b',
      '--chunk-size',
      '500',
      '--no-wait',
    ]);
    expect(parsed.options).toMatchObject({
      args: ['x.csv'],
      delimiter: '\t',
      map: ['A=Email', 'B='],
      conflict: 'upsert',
      tags: ['a', 'b'],
      chunkSize: 500,
      wait: false,
      concurrency: 2,
    });
  });

  it('refuses a chunk size over 100,000 and an unknown conflict action, naming the flag', async () => {
    const big = await run(['prospects', 'import', 'x.csv', '--chunk-size', '100001']);
    expect(big.code).toBe(2);
    expect(big.stderr).toContain('error: --chunk-size must be a whole number from 1 to 100000, not "100001"');
    const conflict = await run(['prospects', 'import', 'x.csv', '--conflict', 'skip']);
    expect(conflict.stderr).toContain(
      'error: --conflict must be one of overwrite, noUpdate, addMissingFields, upsert, not "skip"',
    );
  });

  it('wants --step with --sequence', async () => {
    const result = await run(['prospects', 'import', 'x.csv', '--sequence', 'sqOnbrd1']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --sequence needs --step: the service targets a step');
  });
});

describe('prospects import-status', () => {
  const start = async () =>
    (
      await sb.request('POST', '/v1/prospects/import-with-field-name', {
        conflictAction: 'noUpdate',
        prospectList: [{ Email: 'wait@example.com' }],
      })
    ).body.payload.requestId as string;

  it('waits until the import completes', async () => {
    const requestId = await start();
    const result = await run(['prospects', 'import-status', requestId, '--wait', '--json'], { env: sb.env, cwd: dir });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ payload: { isCompleted: true } });
  });

  it('gives up at --wait-timeout with exit 1 and says how to check later', async () => {
    const requestId = await start();
    const result = await run(['prospects', 'import-status', requestId, '--wait', '--wait-timeout', '0.6'], {
      env: sb.env,
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Waiting for import ${requestId} to complete...\n` +
        `error: import ${requestId} is still running after 0.6s (--wait-timeout)\n` +
        `hint: It goes on at the service. Check later with: outreach prospects import-status ${requestId} --wait\n`,
    );
    expect(result.sleeps).toEqual([500, 100]);
  });
});
