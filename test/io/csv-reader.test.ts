// The shared CSV reader against real-world export shapes: encodings, BOMs, delimiters, quoting, bad records.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import iconv from 'iconv-lite';
import { openCsv, sniffDelimiter, type CsvBatch, type CsvReadOptions } from '../../src/io/csv-reader.js';

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

  it('keeps delimiters, doubled quotes and newlines inside quoted fields; numbers a record by the line it starts on', async () => {
    const result = await read('a,b\n"x, y","say ""hi""\nand bye"\nlast,row');
    expect(result.rows).toEqual([
      { row: 2, fields: ['x, y', 'say "hi"\nand bye'] },
      { row: 4, fields: ['last', 'row'] },
    ]);
  });

  it('takes empty cells past the last column (a trailing comma) as nothing, not as a wrong column count', async () => {
    const result = await read('a,b\n1,2,\n3,4, ,\n5,6,x\n');
    expect(result.rows).toEqual([
      { row: 2, fields: ['1', '2'] },
      { row: 3, fields: ['3', '4'] },
      { row: 4, fields: ['5', '6', 'x'], raw: null, reason: 'expected 2 columns, found 3' },
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

  it('stops at the line where a quote opens and never closes, after the rows before it', async () => {
    const rows: unknown[] = [];
    const lines = [
      'a,b',
      ...Array.from({ length: 5 }, (_, i) => `${i},x`),
      '"6,never closed',
      ...Array.from({ length: 13 }, (_, i) => `${i + 7},y`),
    ];
    const source = await openCsv(Readable.from([Buffer.from(lines.join('\n') + '\n')]), { name: 'leads.csv' });
    const reading = (async () => {
      for await (const row of source.rows) rows.push(row);
    })();
    await expect(reading).rejects.toThrow(
      'leads.csv: line 7: a quoted field opens here and is never closed, so the rest of the file (13 more lines) would be one value',
    );
    expect(rows).toHaveLength(5);
  });

  it('stops at a record that grows past the size limit instead of inventing rows from its middle', async () => {
    const big = `a,b\n1,2\n"${'x'.repeat(2000)},3\n4,5\n`;
    await expect(read(big, { maxRecordChars: 1000, name: 'big.csv' })).rejects.toThrow(
      'big.csv: line 3: the record starting here grows past 1,000 characters; a quote opened on this line is probably never closed',
    );
  });

  it('says a record without a quote that grows past the limit has no line break, not broken quoting', async () => {
    await expect(read(`a,b\n1,2\n${'x,'.repeat(1000)}\n`, { maxRecordChars: 1000, name: 'wide.csv' })).rejects.toThrow(
      'wide.csv: line 3: the record starting here grows past 1,000 characters without a line break',
    );
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

  it('skips blank lines, numbering rows by file line, and trims header cells', async () => {
    const result = await read(' Email , Name \n\nx@y.example,X\n  \ny@y.example,Y\n\n');
    expect(result.header).toEqual(['Email', 'Name']);
    expect(result.rows).toEqual([
      { row: 3, fields: ['x@y.example', 'X'] },
      { row: 5, fields: ['y@y.example', 'Y'] },
    ]);
  });

  it('finds the header under a preamble (LinkedIn Connections.csv) and says so', async () => {
    const linkedin =
      'Notes:\n"When exporting your connection data, you may notice that some of the email addresses are missing."\n\n' +
      'First Name,Last Name,URL,Email Address,Company,Position,Connected On\n' +
      'Ada,Byron,https://www.linkedin.com/in/ada,ada@x.example,Analytical,Founder,01 Nov 2026\n';
    const source = await openCsv(Readable.from([Buffer.from(linkedin)]), { name: 'Connections.csv' });
    expect(source.header[3]).toBe('Email Address');
    expect(source.notes).toEqual([
      'Connections.csv: skipped 3 line(s) before the header on line 4; --skip-lines N chooses',
    ]);
    const rows = [];
    for await (const row of source.rows) rows.push(row);
    expect(rows).toEqual([
      {
        row: 5,
        fields: [
          'Ada',
          'Byron',
          'https://www.linkedin.com/in/ada',
          'ada@x.example',
          'Analytical',
          'Founder',
          '01 Nov 2026',
        ],
      },
    ]);
    expect((await read('junk line\nEmail,Name\nx@y.example,X\n', { skipLines: 1 })).rows[0]).toEqual({
      row: 3,
      fields: ['x@y.example', 'X'],
    });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, and says so', async () => {
    const source = await openCsv(
      Readable.from([Buffer.from('Email,Name\nrene@x.example,Ren\xe9 \x93Ren\x94\n', 'latin1')]),
      {
        name: 'old.csv',
      },
    );
    expect(source.encoding).toBe('windows-1252');
    expect(source.notes[0]).toMatch(/^old\.csv: is not valid UTF-8; reading it as Windows-1252/);
    for await (const row of source.rows) expect(row).toEqual({ row: 2, fields: ['rene@x.example', 'René “Ren”'] });
  });

  it.each([
    [
      'an .xlsx renamed .csv',
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0]),
      'input: this is not a CSV file: it looks like an Excel workbook or another zip archive (.xlsx, .zip)',
    ],
    [
      'a gzip file',
      Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]),
      'input: this is not a CSV file: it looks like a gzip archive (.gz)',
    ],
    [
      'a PNG',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      'input: this is not a CSV file: it looks like a PNG image',
    ],
    [
      'UTF-16LE without a BOM',
      iconv.encode('Email,Name\nx@y.example,X\n', 'utf16le'),
      'input: looks like UTF-16LE text without a byte-order mark',
    ],
    ['only blank lines', Buffer.from('\n\n   \n'), 'input: holds only blank lines or spaces: no header, no rows'],
  ])('refuses %s with what it looks like', async (_, bytes, message) => {
    await expect(read(bytes)).rejects.toThrow(message);
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
    await expect(read('')).rejects.toThrow('input: is empty (0 bytes): no header line');
  });

  it('sniffs ties and quoted delimiters sensibly', () => {
    expect(sniffDelimiter('a;b,c')).toBe(',');
    expect(sniffDelimiter('"a,b,c";d;e')).toBe(';');
    expect(sniffDelimiter('a\tb\tc')).toBe('\t');
  });
});

describe('openCsv from a noted place', () => {
  const lines = ['Email,Name,Notes'];
  for (let i = 0; i < 400; i++) {
    if (i % 37 === 0) lines.push('');
    const notes = i % 5 === 0 ? `"two\r\nlines, ""quoted"" ${'é'.repeat(i % 7)}"` : `note ${i} ✓`;
    // Two exports joined with cat: the second one's byte-order mark is now a value at the start of a record.
    lines.push(`${i % 50 === 7 ? '\uFEFF' : ''}p${i}@x.example,Zoë ${i},${notes}`);
  }
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);

  async function batchesOf(bytes: Buffer) {
    const { writeFileSync, createReadStream } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/context.js');
    const path = join(tempDir('outreach-from-'), 'people.csv');
    writeFileSync(path, bytes);
    // Small reads: many batches, most of them with a place.
    const whole = await openCsv(createReadStream(path, { highWaterMark: 997 }));
    const batches: CsvBatch[] = [];
    for await (const batch of whole.batches) batches.push(batch);
    return { path, whole, batches, createReadStream };
  }

  it('reads from each batch start the rows a read from the top gives there (BOM, CRLF, quoted breaks, blanks)', async () => {
    const { path, whole, batches, createReadStream } = await batchesOf(
      Buffer.concat([bom, Buffer.from(lines.join('\r\n'))]),
    );
    const placed = batches.filter((b) => b.from);
    expect(placed.length).toBeGreaterThan(10);
    const rowsFrom = (i: number) => batches.slice(i).flatMap((b) => b.rows);
    for (const batch of placed) {
      const again = await openCsv(createReadStream(path, { start: batch.from!.byte, highWaterMark: 1499 }), {
        delimiter: whole.delimiter,
        from: { ...batch.from!, header: whole.header },
      });
      const rows = [];
      for await (const row of again.rows) rows.push(row);
      expect(rows).toEqual(rowsFrom(batches.indexOf(batch)));
    }
  });

  it('notes no place after bytes that were not UTF-8 (they decode to U+FFFD, which is three bytes again)', async () => {
    const text = Buffer.from(lines.join('\n'));
    const cut = text.indexOf('p200@');
    const { batches } = await batchesOf(
      Buffer.concat([text.subarray(0, cut), Buffer.from([0xe9]), text.subarray(cut)]),
    );
    const broken = batches.findIndex((b) => b.rows.some((r) => r.fields?.[0]?.includes('\uFFFD')));
    expect(broken).toBeGreaterThan(2);
    expect(batches.slice(1, broken - 1).every((b) => b.from)).toBe(true);
    expect(batches.slice(broken).some((b) => b.from)).toBe(false);
  });
});
