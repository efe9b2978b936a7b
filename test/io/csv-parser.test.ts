// The CSV record parser against a reference: the same rules written character by character, as plainly as they read
// in csv-parser.ts's header, over thousands of random files cut at random places (inside UTF-8 characters and CRLF
// pairs too). The corpora tests check the rules themselves against other parsers' suites.
import { describe, expect, it } from 'vitest';
import { CsvStructureError, parseRecords, recordInfo } from '../../src/io/csv-parser.js';
import { seededRandom } from '../../src/sandbox/prng.js';

interface Reference {
  records: Array<{ fields: string[]; bad: boolean; lineBreaks: number }>;
  error?: 'unclosed-quote';
}

function reference(text: string, d: string): Reference {
  const records: Reference['records'] = [];
  const ends = (c: string | undefined) => c === undefined || c === d || c === '\n' || c === '\r';
  const space = (c: string | undefined) => c === ' ' || (c === '\t' && d !== '\t');
  let i = text.startsWith('\uFEFF') ? 1 : 0;
  const breaks = (from: number, to: number) =>
    text
      .slice(from, to)
      .replace(/\r\n/g, '\n')
      .replace(/[^\r\n]/g, '').length;
  while (i < text.length) {
    const start = i;
    let end = i;
    const fields: string[] = [];
    let bad = false;
    for (;;) {
      let j = i;
      while (space(text[j])) j++;
      let value = '';
      if (text[j] === '"') {
        j++;
        for (;;) {
          if (j >= text.length) {
            // A quote never closed: on the last line it makes that record bad; with lines after it, it stops the file.
            if (/[\r\n]/.test(text.slice(start).replace(/[\r\n]+$/, ''))) return { records, error: 'unclosed-quote' };
            fields.push(value.replace(/[\r\n]+$/, ''));
            records.push({ fields, bad: true, lineBreaks: 0 });
            return { records };
          }
          if (text[j] === '"') {
            if (text[j + 1] === '"') {
              value += '"';
              j += 2;
              continue;
            }
            j++;
            break;
          }
          value += text[j++];
        }
        let k = j;
        while (space(text[k])) k++;
        if (ends(text[k])) j = k;
        else {
          bad = true;
          while (!ends(text[j])) value += text[j++];
        }
      } else {
        j = i;
        while (!ends(text[j])) value += text[j++];
      }
      if (value.includes('\0')) bad = true;
      fields.push(value);
      if (text[j] === d) {
        i = j + 1;
        continue;
      }
      end = j;
      i = text[j] === '\r' && text[j + 1] === '\n' ? j + 2 : j + 1;
      break;
    }
    records.push({ fields, bad, lineBreaks: breaks(start, end) });
  }
  return { records };
}

async function parse(chunks: Buffer[], d: string, maxRecordChars = 1e6): Promise<Reference> {
  const source = parseRecords(
    (async function* () {
      yield* chunks;
    })(),
    { delimiter: d, maxRecordChars },
  );
  const records: Reference['records'] = [];
  try {
    for (let fields = await source.fill(); fields; fields = source.next() ?? (await source.fill()))
      records.push({
        fields: [...fields],
        bad: Boolean(recordInfo(fields)?.bad),
        lineBreaks: recordInfo(fields)?.lineBreaks ?? 0,
      });
  } catch (error) {
    if (error instanceof CsvStructureError && error.kind === 'unclosed-quote') return { records, error: error.kind };
    throw error;
  }
  return { records };
}

/** Cuts bytes at random places, some of them inside a multi-byte character. */
function cutRandomly(bytes: Buffer, random: () => number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
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
  ';',
  '"',
  '"',
  '""',
  '\n',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '\t',
  'é',
  '😀',
  '\0',
  'x@y.z',
];

function randomCsv(random: () => number): string {
  const lines: string[] = [];
  for (let i = Math.floor(random() * 12); i > 0; i--) {
    let line = '';
    for (let j = Math.floor(random() * 10); j > 0; j--) line += pieces[Math.floor(random() * pieces.length)];
    // Most lines are regular: fields quoted whole or not at all.
    if (random() < 0.6) line = line.replace(/["\r\n\0]/g, '').replace(/^([^,]*),/, '"$1,\n""",');
    lines.push(line);
  }
  // Each line ends its own way, as in files joined with cat.
  const eol = () => ['\n', '\r\n', '\r'][Math.floor(random() * 3)]!;
  return lines.map((line) => line + eol()).join('');
}

describe('the CSV record parser', () => {
  it('reads 3,000 random files as the reference does, however the bytes arrive', async () => {
    const random = seededRandom(20261124);
    for (let i = 0; i < 3000; i++) {
      const text = randomCsv(random);
      const d = random() < 0.8 ? ',' : ';';
      const got = await parse(cutRandomly(Buffer.from(text), random), d);
      expect({ text, got }).toEqual({ text, got: reference(text, d) });
    }
  });

  it('ends each record at its own LF, CRLF or CR: files joined with cat read as their parts', async () => {
    const crlfHeader = await parse(
      [Buffer.from('Email,Name\r\na@x.example,Ann\nb@x.example,Bo\nc@x.example,""\n')],
      ',',
    );
    expect(crlfHeader.records.map((r) => r.fields)).toEqual([
      ['Email', 'Name'],
      ['a@x.example', 'Ann'],
      ['b@x.example', 'Bo'],
      ['c@x.example', ''],
    ]);
    const lfHeader = await parse([Buffer.from('Email,Name\na@x.example,""\r\nb@x.example,"Bo"\r\n')], ',');
    expect(lfHeader.records.map((r) => r.fields)).toEqual([
      ['Email', 'Name'],
      ['a@x.example', ''],
      ['b@x.example', 'Bo'],
    ]);
  });

  it('reads spaces around a quoted field as layout, and marks text after a closing quote', async () => {
    const { records } = await parse([Buffer.from('A, "B" ,C\n"a"b,"First1"a   ",x\n')], ',');
    expect(records).toEqual([
      { fields: ['A', 'B', 'C'], bad: false, lineBreaks: 0 },
      { fields: ['ab', 'First1a   "', 'x'], bad: true, lineBreaks: 0 },
    ]);
  });

  it('stops at a record longer than the limit', async () => {
    await expect(parse([Buffer.from(`a,b\n"${'x'.repeat(50)}\n`)], ',', 20)).rejects.toThrow(CsvStructureError);
  });
});
