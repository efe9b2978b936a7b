// What a prospect import does with records as third parties write them (issue 26 items 3, 4, 5, 10), through the real
// CLI against the sandbox: files joined with cat, quotes around and after values, NUL bytes, rows wider than the
// header. Whatever is sent is what the file says; every other row is in the rejects and failed files whole, so a
// fixed file imports what the user wrote.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-records-');
});
afterEach(() => sb.close());

const put = (name: string, content: string | Buffer) => writeFileSync(join(dir, name), content);
const corpus = (path: string) => {
  const name = path.split('/').pop()!;
  copyFileSync(new URL(`../../fixtures/corpora/${path}`, import.meta.url), join(dir, name));
  return name;
};
const importFile = (name: string, ...argv: string[]) =>
  run(['prospects', 'import', name, '--wait', '--json', ...argv], { env: sb.env, cwd: dir });
const stored = (email: string) => prospectByEmail(sb, email)?.values;
const readBack = (name: string): string[][] =>
  parse(readFileSync(join(dir, name)), { relax_column_count: true, bom: true });

describe('prospects import: records as others write them', () => {
  it('reads a CRLF header over LF rows, and an LF header over CRLF rows, record by record', async () => {
    // Two exports joined with cat: each keeps its own line endings.
    put('joined.csv', 'Email,First Name\r\na@x.example,Ann\nb@x.example,Bo\nc@x.example,""\n');
    expect(JSON.parse((await importFile('joined.csv')).stdout)).toMatchObject({ total: 3, sent: 3, succeeded: 3 });
    expect(stored('b@x.example')).toMatchObject({ fFirstNm: 'Bo' });
    expect(stored('c@x.example')?.fFirstNm ?? '').toBe('');

    put('joined2.csv', 'Email,First Name\nd@x.example,""\r\ne@x.example,"Eve"\r\n');
    expect(JSON.parse((await importFile('joined2.csv')).stdout)).toMatchObject({ total: 2, sent: 2, succeeded: 2 });
    expect(stored('d@x.example')?.fFirstNm ?? '').toBe('');
    expect(stored('e@x.example')).toMatchObject({ fFirstNm: 'Eve' });
  });

  it('reads spaces after a closing quote as layout, and rejects text after one with its row and column', async () => {
    put(
      'quotes.csv',
      'Email,First Name,Company\nf@x.example,"Fay" ,Acme\ng@x.example,"Gus"x,Acme\nh@x.example,Hal,"Acme"\n',
    );
    const result = await importFile('quotes.csv');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 3, sent: 2, rejected: 1, succeeded: 2 });
    expect(stored('f@x.example')).toMatchObject({ fFirstNm: 'Fay' });
    expect(stored('g@x.example')).toBeUndefined();
    // The record stays as the file has it (its values are not quietly joined into Gusx), in the rejects file and in
    // the failed file a fix is imported from: imported again unfixed, it is refused again.
    const lines = (name: string) => readFileSync(join(dir, name), 'utf8').split('\n');
    expect(lines('quotes.rejected.csv')[1]).toBe(
      '3,"broken quoting in column 2: text follows its closing quote (""Gus""x)",g@x.example,"Gus"x,Acme',
    );
    expect(lines('quotes.failed.csv')[1]).toBe('g@x.example,"Gus"x,Acme');
    const again = await importFile('quotes.failed.csv');
    expect(JSON.parse(again.stdout)).toMatchObject({ total: 1, sent: 0, rejected: 1 });
  });

  it("sends no quote characters from fast-csv's malformed fixture: the broken row is rejected, the next one sent", async () => {
    const name = corpus('fast-csv/malformed.csv');
    const result = await importFile(name, '--map', 'address=');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, sent: 1, rejected: 1, succeeded: 1 });
    expect(stored('email1@email.com')).toBeUndefined();
    expect(stored('email2@email.com')).toMatchObject({ fFirstNm: 'First2', fLastNm: 'Last2' });
    expect(readFileSync(join(dir, 'malformed.rejected.csv'), 'utf8').split('\n')[1]).toBe(
      '2,"broken quoting in column 1: text follows its closing quote (""First1""a   "")",' +
        '"First1"a   ", Last1 ,email1@email.com,"1 Street St, State ST, 88888"',
    );
  });

  it("rejects only the row holding a NUL byte (csvkit's null_byte.csv), wherever it stands", async () => {
    const name = corpus('csvkit/null_byte.csv');
    const result = await importFile(name, '--map', 'b=Email', '--map', 'a=First Name', '--map', 'c=');
    expect(result.code).toBe(2);
    expect(readBack('null_byte.rejected.csv')).toEqual([
      ['row', 'reason', 'a', 'b', 'c'],
      ['2', 'column 1 holds a NUL byte (binary data, not text)', '\0', '2', '3'],
    ]);

    put('early.csv', 'Email,First Name\nn@x.example,N\0l\nm@x.example,Mo\n');
    const early = await importFile('early.csv');
    expect(early.code).toBe(3);
    expect(JSON.parse(early.stdout)).toMatchObject({ total: 2, sent: 1, rejected: 1, succeeded: 1 });
    expect(stored('m@x.example')).toMatchObject({ fFirstNm: 'Mo' });
  });

  it('writes rejected and failed rows whole and RFC 4180-valid: read back, they are the input records', async () => {
    const input = [
      'Email,First Name,Company',
      'a@x.com,Ann,Acme, Inc.,CEO', // a comma that was not quoted: five cells under three columns
      '"bad-email","Cr\rLf","  spaced  "', // a lone CR and edge spaces inside quotes
      'bounced@example.com,Bob,"Old\nCo"', // the sandbox's bounced address: fails at the service
      'ok@x.example,Oz,Fine',
    ];
    put('whole.csv', input.join('\n') + '\n');
    const result = await importFile('whole.csv');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 4, sent: 2, rejected: 2, failed: 1, succeeded: 1 });
    const records = parse(input.join('\n'), { relax_column_count: true }) as string[][];
    expect(readBack('whole.rejected.csv')).toEqual([
      ['row', 'reason', 'Email', 'First Name', 'Company'],
      ['2', 'expected 3 columns, found 5', ...records[1]!],
      ['3', 'invalid email: missing @', ...records[2]!],
    ]);
    expect(readBack('whole.failed.csv')).toEqual([records[0], records[1], records[2], records[3]]);
    // Python's csv and Excel see a lone CR as a line break unless it is quoted.
    expect(readFileSync(join(dir, 'whole.failed.csv'), 'utf8')).toContain('"Cr\rLf","  spaced  "');
  });

  it('measures emails in octets: a 75-octet local part and a 255-octet address are rejected, 64 and 254 pass', async () => {
    const domain = (octets: number) =>
      ['a', 'b', 'c'].map((c) => `${c.repeat(63)}.`).join('') + 'd'.repeat(octets - 196) + '.com';
    const local64 = 'é'.repeat(32); // 32 characters, 64 octets
    const local75 = `${'é'.repeat(37)}x`; // 38 characters, 75 octets
    const at254 = `a@${domain(252)}`;
    const at255 = `ab@${domain(252)}`;
    put('octets.csv', ['Email', `${local64}@x.example`, `${local75}@x.example`, at254, at255].join('\n') + '\n');
    const result = await importFile('octets.csv');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 4, sent: 2, rejected: 2, succeeded: 2 });
    expect(readBack('octets.rejected.csv').map((r) => r.slice(0, 2))).toEqual([
      ['row', 'reason'],
      ['3', 'invalid email: local part of 75 octets (at most 64)'],
      ['5', 'invalid email: address of 255 octets (at most 254)'],
    ]);
    expect(stored(`${local64}@x.example`)).toBeDefined();
    expect(stored(at254)).toBeDefined();
  });

  it('refuses only the last record when its quote never closes: nothing follows that it could swallow', async () => {
    put('last.csv', 'Email,First Name\na7@x.example,Ann\nb7@x.example,"Bob');
    const result = await importFile('last.csv');
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, sent: 1, rejected: 1, succeeded: 1 });
    expect(readFileSync(join(dir, 'last.rejected.csv'), 'utf8').split('\n')[1]).toBe(
      '3,a quote opens in column 2 and is never closed,b7@x.example,"Bob',
    );
  });
});
