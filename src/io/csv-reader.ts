// The one streaming CSV reader of the tool (prospect imports, DNC uploads), in three parts: sniffing the first bytes
// (csv-sniff.ts: the encoding, the preamble, the delimiter; files that are not CSV text refused), the records as rows
// (csv-records.ts: numbered by the file line they start on, bad ones marked, batches that say where they start), and
// this reader, which joins them and takes the header off the front. Memory stays flat whatever the size.
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { parseRecords, recordInfo } from './csv-parser.js';
import { CsvRecords, type CsvBadRow, type CsvBatch, type CsvPosition, type CsvRow } from './csv-records.js';
import { iconvName, sniffEncoding, sniffLayout, type CsvEncoding, type SniffedEncoding } from './csv-sniff.js';

export type { CsvBadRow, CsvBatch, CsvPosition, CsvRow } from './csv-records.js';
export { sniffDelimiter, type CsvEncoding } from './csv-sniff.js';

export interface CsvReadOptions {
  /** Forced encoding; by default UTF-16 is recognised by its BOM and anything else is read as UTF-8. */
  encoding?: CsvEncoding;
  /** Forced delimiter; by default sniffed among , ; tab | from the header line. */
  delimiter?: string;
  /** Whether the first record is a header (default true). */
  header?: boolean;
  /** A record longer than this many characters (2^25 by default) stops the file: an unclosed quote, or no line breaks. */
  maxRecordChars?: number;
  /** Lines before the header to skip; by default a preamble of lines without a delimiter is found and skipped. */
  skipLines?: number;
  /** How messages name the input ("leads.csv", "--file: optouts.csv"). */
  name?: string;
  /** The input starts at this position of a UTF-8 file read before (a batch's `from`), under this header. */
  from?: CsvPosition & { header: string[] };
  /** The marks of the file read before, for a read from a position (which cannot see them). */
  marks?: CsvMarks;
}

/** What a spreadsheet reads a file by beside its text: a byte-order mark, the line ending, the encoding, the
 * delimiter and Excel's "sep=" line. Files of the user's own rows (rejected, failed) keep them, so Excel reads their
 * accents, cells and lines as it read the input's. */
export interface CsvMarks {
  bom: boolean;
  lineEnding: '\n' | '\r\n';
  /** The file's encoding, when it is not UTF-8 (Excel's Windows-1252, UTF-16). */
  encoding?: CsvEncoding;
  /** What separates its cells, when it is not a comma (Excel's ";" where the decimal mark is a comma). */
  delimiter?: string;
  /** Its first line was Excel's "sep=X". */
  excelSep?: true;
}

export interface CsvSource {
  header: string[];
  delimiter: string;
  encoding: CsvEncoding;
  rows: AsyncIterable<CsvRow | CsvBadRow>;
  /** The same records, every one parsed so far at a time: one promise a batch instead of one a record (the hot
   * loops of imports and DNC uploads). Use either this or `rows`, not both. */
  batches: AsyncIterable<CsvBatch>;
  /** Lines skipped before the header (a preamble). */
  skipLines: number;
  marks: CsvMarks;
  /** What was guessed and should be said: an encoding that is not UTF-8, a skipped preamble. */
  notes: string[];
  /** Stops reading early (after a look at the header), releasing the file. */
  close(): void;
}

const sniffBytes = 64 * 1024;

/** Reads enough of the input to see the BOM and the first line, and gives back a stream that still starts at byte 0. */
async function peek(
  input: AsyncIterable<Buffer | string>,
): Promise<{ head: Buffer; rest: AsyncIterator<Buffer | string> }> {
  const iterator = input[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let size = 0;
  while (size < sniffBytes) {
    const next = await iterator.next();
    if (next.done) break;
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    parts.push(chunk);
    size += chunk.length;
    if (chunk.includes(0x0a)) break;
  }
  return { head: Buffer.concat(parts), rest: iterator };
}

/** Sniffs the file's first bytes (csv-sniff.ts), parses its records (csv-parser.ts) as rows (csv-records.ts), and
 * takes the header off the front. */
export async function openCsv(
  input: NodeJS.ReadableStream | Readable,
  options: CsvReadOptions = {},
): Promise<CsvSource> {
  const { head, rest } = await peek(input as AsyncIterable<Buffer>);
  const named = (text: string) => `${options.name ?? 'input'}: ${text}`;
  // A read from a position of a file read before: no BOM, no preamble, no header there; the checks were made then.
  const from = options.from;
  const sniffed: SniffedEncoding = from
    ? { encoding: options.encoding ?? 'utf8', bom: 0, notes: [] }
    : sniffEncoding(head, options.encoding, named);
  const { encoding, bom, notes } = sniffed;
  // iconv-lite (half a megabyte of code tables) loads only for files that are not UTF-8.
  const iconv = encoding === 'utf8' ? undefined : (await import('iconv-lite')).default;
  const headText = (iconv ? iconv.decode(head, iconvName(encoding)) : head.subarray(bom).toString('utf8')).replace(
    /^\uFEFF/,
    '',
  );
  const useHeader = options.header ?? true;
  const layout = sniffLayout(
    headText,
    from
      ? { skipLines: 0, delimiter: options.delimiter, findPreamble: false }
      : { ...options, findPreamble: useHeader },
    named,
  );
  if (layout.note) notes.push(layout.note);
  const { skipLines, delimiter } = layout;
  const maxRecordChars = options.maxRecordChars ?? 32 * 2 ** 20;
  // The bytes again, from the start, BOM removed when the encoding is the one it announced.
  async function* bytes(): AsyncGenerator<Buffer> {
    yield head.subarray(bom);
    for (let next = await rest.next(); !next.done; next = await rest.next())
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
  const parsed = parseRecords(bytes(), {
    delimiter,
    maxRecordChars,
    skipLines,
    midFile: Boolean(from),
    decoder: iconv?.getDecoder(iconvName(encoding)),
  });
  const records = new CsvRecords(parsed, {
    line: from ? from.line : skipLines,
    byteBase: from ? from.byte : bom,
    maxRecordChars,
    named,
  });
  // A read from a noted place starts below the header, which was read before.
  const first = from ? undefined : await records.first();
  const header = from ? from.header : useHeader ? headerOf(first, records, head.length > bom, options, named) : [];
  const batches = records.batches(useHeader ? undefined : first, useHeader ? header.length : undefined);
  return {
    header,
    delimiter,
    encoding,
    skipLines,
    notes,
    // Given: as the first look at the file found them (a later read, told where the header is, cannot see sep=).
    marks:
      options.marks ??
      (from
        ? { bom: false, lineEnding: '\n' }
        : {
            bom: bom > 0,
            lineEnding: /^[^\n]*\r\n/.test(headText) ? '\r\n' : '\n',
            ...(encoding !== 'utf8' ? { encoding } : {}),
            ...(delimiter !== ',' ? { delimiter } : {}),
            ...(layout.excelSep ? { excelSep: true as const } : {}),
          }),
    rows: (async function* () {
      for await (const batch of batches) yield* batch.rows;
    })(),
    batches,
    close: () => parsed.close(),
  };
}

/** The header's names, from the first record; none is an empty file, or one of blank lines. */
function headerOf(
  first: string[] | undefined,
  records: CsvRecords,
  hasBytes: boolean,
  options: CsvReadOptions,
  named: (text: string) => string,
): string[] {
  if (!first && options.skipLines)
    throw new UsageError(named(`--skip-lines ${options.skipLines}: no header line after line ${options.skipLines}`));
  if (!first)
    throw new UsageError(
      named(hasBytes ? 'holds only blank lines or spaces: no header, no rows' : 'is empty (0 bytes): no header line'),
      'A CSV starts with a header line naming its columns (Email, First Name, ...).',
    );
  const bad = recordInfo(first)?.bad;
  if (bad) throw new UsageError(named(`the header line cannot be read: ${bad.reason}`));
  records.passOver(first);
  return first.map((cell) => cell.replace(/^\uFEFF/, '').trim());
}
