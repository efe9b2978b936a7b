// The shared CSV reader against real-world export shapes: encodings, BOMs, delimiters, quoting, bad records.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { openCsv, sniffDelimiter, type CsvReadOptions } from '../../src/io/csv-reader.js';

async function read(bytes: Buffer | string, options?: CsvReadOptions) {
  const source = await openCsv(Readable.from([typeof bytes === 'string' ? Buffer.from(bytes) : bytes]), options);
  const rows = [];
  for await (const row of source.rows) rows.push(row);
  return { header: source.header, delimiter: source.delimiter, encoding: source.encoding, rows };
}

describe('openCsv', () => {
  it('reads Excel "CSV UTF-8": BOM and CRLF', async () => {
    const result = await read(
      Buffer.concat([
        Buffer.from([0xef, 0xbb, 0xbf]),
        Buffer.from('Email,First Name\r\nana@x.example,Ana\r\nzoë@x.example,Zoë\r\n'),
      ]),
    );
    expect(result.header).toEqual(['Email', 'First Name']);
    expect(result.rows).toEqual([
      { row: 2, fields: ['ana@x.example', 'Ana'] },
      { row: 3, fields: ['zoë@x.example', 'Zoë'] },
    ]);
  });

  it('sniffs ";" from a de/fr Excel export whose values hold unquoted commas', async () => {
    const result = await read('Email;Firma;Umsatz\nkarl@x.example;Müller, Söhne;1,5\n');
    expect(result.delimiter).toBe(';');
    expect(result.rows[0]).toEqual({ row: 2, fields: ['karl@x.example', 'Müller, Söhne', '1,5'] });
  });

  it('reads Excel "Unicode text": UTF-16LE with BOM, tab-separated', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode('Email\tName\nli@x.example\t李\n', 'utf16le'),
    ]);
    const result = await read(bytes);
    expect(result).toMatchObject({ encoding: 'utf16le', delimiter: '\t', header: ['Email', 'Name'] });
    expect(result.rows[0]).toEqual({ row: 2, fields: ['li@x.example', '李'] });
  });

  it('reads UTF-16BE with BOM', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0xfe, 0xff]),
      iconv.encode('Email,Name\nel@x.example,Éloïse\n', 'utf16be'),
    ]);
    const result = await read(bytes);
    expect(result.encoding).toBe('utf16be');
    expect(result.rows[0]!.fields).toEqual(['el@x.example', 'Éloïse']);
  });

  it('reads windows-1252 (and latin1 the same way): €, smart quotes and é survive', async () => {
    const bytes = Buffer.from([
      ...Buffer.from('Email,Note\nr@x.example,'),
      0x80,
      0x35,
      0x20,
      0x93,
      0x68,
      0x69,
      0x94,
      0x20,
      0xe9,
      0x0a,
    ]);
    for (const encoding of ['windows-1252', 'latin1'] as const) {
      const result = await read(bytes, { encoding });
      expect(result.rows[0]!.fields![1]).toBe('€5 “hi” é');
    }
  });

  it('keeps delimiters, doubled quotes and newlines inside quoted fields; counts rows as a spreadsheet does', async () => {
    const result = await read('a,b\n"x, y","say ""hi""\nand bye"\nlast,row');
    expect(result.rows).toEqual([
      { row: 2, fields: ['x, y', 'say "hi"\nand bye'] },
      { row: 3, fields: ['last', 'row'] },
    ]);
  });

  it('reports a wrong column count with its row, and goes on', async () => {
    const result = await read('a,b\n1,2\n1,2,3\n4,5\n');
    expect(result.rows[1]).toEqual({
      row: 3,
      fields: ['1', '2', '3'],
      raw: null,
      reason: 'expected 2 columns, found 3',
    });
    expect(result.rows[2]).toEqual({ row: 4, fields: ['4', '5'] });
  });

  it('reports broken quoting as a bad row with its number, keeping the rows before it', async () => {
    const result = await read('a,b\n1,2\n"3,4\n5,6\n');
    expect(result.rows[0]).toEqual({ row: 2, fields: ['1', '2'] });
    expect(result.rows[1]).toMatchObject({
      row: 3,
      fields: null,
      reason: 'broken quoting: a quoted field is never closed',
    });
  });

  it('reports text after a closing quote and reads the next rows with the right numbers', async () => {
    const result = await read('a,b\n1,2\n"x"y z,3\n4,5\n');
    expect(result.rows.map((r) => r.row)).toEqual([2, 3, 4]);
    expect(result.rows[2]).toEqual({ row: 4, fields: ['4', '5'] });
  });

  it('takes pipe-delimited files and a forced delimiter', async () => {
    expect((await read('a|b\n1|2\n')).rows[0]!.fields).toEqual(['1', '2']);
    expect((await read('a,b;c\n1,2;3\n', { delimiter: ';' })).header).toEqual(['a,b', 'c']);
  });

  it('skips blank lines and trims header cells', async () => {
    const result = await read(' Email , Name \n\nx@y.example,X\n\n');
    expect(result.header).toEqual(['Email', 'Name']);
    expect(result.rows).toEqual([{ row: 2, fields: ['x@y.example', 'X'] }]);
  });

  it('reads headerless one-value-per-line files', async () => {
    const result = await read('a@x.example\nb.example\n', { header: false });
    expect(result.header).toEqual([]);
    expect(result.rows).toEqual([
      { row: 1, fields: ['a@x.example'] },
      { row: 2, fields: ['b.example'] },
    ]);
  });

  it('refuses an empty file', async () => {
    await expect(read('')).rejects.toThrow('the file is empty: no header line');
  });

  it('sniffs ties and quoted delimiters sensibly', () => {
    expect(sniffDelimiter('a;b,c')).toBe(',');
    expect(sniffDelimiter('"a,b,c";d;e')).toBe(';');
    expect(sniffDelimiter('a\tb\tc')).toBe('\t');
  });
});
