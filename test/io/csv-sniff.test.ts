import { describe, expect, it } from 'vitest';
import { sniffEncoding, sniffLayout } from '../../src/io/csv-sniff.js';
import { UsageError } from '../../src/errors.js';

const named = (text: string) => `leads.csv: ${text}`;

describe('sniffing a CSV file from its first bytes', () => {
  it('reads a BOM, and drops it only in the encoding it announces', () => {
    const utf8 = Buffer.from('\uFEFFEmail\n', 'utf8');
    expect(sniffEncoding(utf8, undefined, named)).toEqual({ encoding: 'utf8', bom: 3, notes: [] });
    expect(sniffEncoding(utf8, 'latin1', named)).toEqual({ encoding: 'latin1', bom: 0, notes: [] });
    expect(sniffEncoding(Buffer.from([0xff, 0xfe, 0x45, 0]), undefined, named)).toMatchObject({
      encoding: 'utf16le',
      bom: 2,
    });
  });

  it('reads bytes that are not UTF-8 as Windows-1252, and says so', () => {
    const sniffed = sniffEncoding(Buffer.from('Name\nRen\xe9\n', 'latin1'), undefined, named);
    expect(sniffed.encoding).toBe('windows-1252');
    expect(sniffed.notes).toEqual([
      'leads.csv: is not valid UTF-8; reading it as Windows-1252 (Excel\'s "CSV" on Windows). ' +
        'If names look wrong, give --encoding (utf8, utf16le, utf16be, latin1, windows-1252).',
    ]);
  });

  it('refuses a workbook and UTF-16 without a BOM, naming the file', () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]);
    expect(() => sniffEncoding(zip, undefined, named)).toThrow(/^leads\.csv: this is not a CSV file: it looks like/);
    const utf16 = Buffer.from('Email,Name\n', 'utf16le');
    expect(() => sniffEncoding(utf16, undefined, named)).toThrow(UsageError);
    expect(() => sniffEncoding(utf16, undefined, named)).toThrow('looks like UTF-16LE text without a byte-order mark');
  });

  it('finds a preamble above the header and the delimiter of the header line', () => {
    const text = 'Notes:\nExported from LinkedIn\n\nFirst Name;Last Name;Email\nAda;Lovelace;ada@x.example\n';
    expect(sniffLayout(text, { findPreamble: true }, named)).toEqual({
      skipLines: 3,
      delimiter: ';',
      note: 'leads.csv: skipped 3 line(s) before the header on line 4; --skip-lines N chooses',
    });
    expect(sniffLayout(text, { findPreamble: true, skipLines: 3 }, named)).toEqual({ skipLines: 3, delimiter: ';' });
    expect(sniffLayout('a|b\n1|2\n', { findPreamble: false, delimiter: ',' }, named)).toEqual({
      skipLines: 0,
      delimiter: ',',
    });
  });
});
