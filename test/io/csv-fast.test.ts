// The reader's fast path must read every file exactly as csv-parse does: the same header, records, row numbers, bad
// records and errors, whatever the quoting, line endings and chunk boundaries (even inside a UTF-8 character).
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openCsv, type CsvReadOptions } from '../../src/io/csv-reader.js';
import { seededRandom } from '../../src/sandbox/prng.js';

async function readAll(chunks: Buffer[], options: CsvReadOptions) {
  try {
    const source = await openCsv(Readable.from(chunks), options);
    const rows = [];
    for await (const row of source.rows) rows.push(row);
    return { header: source.header, delimiter: source.delimiter, rows };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** csv-parse counts the lines of an unclosed quote its own way in CRLF files (CR and LF apart): the "N more lines"
 * after a quote never closed is only compared where that count is plain. */
function withoutLineCount(result: Awaited<ReturnType<typeof readAll>>) {
  return 'error' in result ? { error: result.error!.replace(/ \(\d+ more lines\)/, '') } : result;
}

/** Cuts bytes at random places, some of them inside a multi-byte character. */
function cutRandomly(bytes: Buffer, random: () => number): Buffer[] {
  const chunks: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = 1 + Math.floor(random() * (random() < 0.5 ? 8 : 200));
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

const pieces = [
  'ana',
  'b',
  ',',
  ',',
  ',',
  '"',
  '"',
  '""',
  '\n',
  '\n',
  '\r\n',
  '\r',
  ' ',
  'é',
  '😀',
  ';',
  'x@y.example',
];

function randomCsv(random: () => number): string {
  const eol = random() < 0.5 ? '\n' : '\r\n';
  const lines = [random() < 0.3 ? '"Email","Name"' : 'Email,Name'];
  const count = Math.floor(random() * 12);
  for (let i = 0; i < count; i++) {
    let line = '';
    const length = Math.floor(random() * 10);
    for (let j = 0; j < length; j++) line += pieces[Math.floor(random() * pieces.length)];
    // Most lines are regular: fields quoted whole or not at all.
    if (random() < 0.6) line = line.replace(/["\r\n]/g, '').replace(/^([^,]*),/, '"$1,\n""",');
    lines.push(line);
  }
  return lines.join(eol) + (random() < 0.7 ? eol : '');
}

describe('the fast path of the CSV reader', () => {
  it('reads 3,000 random files exactly as csv-parse does', async () => {
    const random = seededRandom(20261123);
    for (let i = 0; i < 3000; i++) {
      const text = randomCsv(random);
      const bytes = Buffer.from(text);
      const chunks = cutRandomly(bytes, random);
      const options = { name: 'f.csv', maxRecordBytes: random() < 0.1 ? 20 : undefined };
      const fast = await readAll(chunks, options);
      const reference = await readAll([bytes], { ...options, csvParseOnly: true });
      expect({ text, result: withoutLineCount(fast) }).toEqual({ text, result: withoutLineCount(reference) });
    }
  });

  it('reads quoted fields with escaped quotes and line breaks, CRLF records, and a BOM', async () => {
    const text = '\uFEFF"Email","Note"\r\n"a@x.example","say ""hi""\r\nthen go"\r\nb@x.example,\r\n\r\nc@x.example,end';
    const result = await readAll(cutRandomly(Buffer.from(text), seededRandom(1)), { name: 'f.csv' });
    expect(result).toEqual({
      header: ['Email', 'Note'],
      delimiter: ',',
      rows: [
        { row: 2, fields: ['a@x.example', 'say "hi"\r\nthen go'] },
        { row: 4, fields: ['b@x.example', ''] },
        { row: 6, fields: ['c@x.example', 'end'] },
      ],
    });
  });

  it('hands a stray quote and everything after it to csv-parse, keeping row numbers', async () => {
    const text = 'Email,Height\na@x.example,180\nb@x.example,5\'11"\n"c@x.example"x,1\nd@x.example,2\n';
    const result = await readAll([Buffer.from(text)], { name: 'f.csv' });
    expect(result).toEqual(await readAll([Buffer.from(text)], { name: 'f.csv', csvParseOnly: true }));
    expect(result.rows?.map((r) => r.row)).toEqual([2, 3, 4, 5]);
  });
});
