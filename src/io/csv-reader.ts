// The one streaming CSV reader of the tool (prospect imports, DNC uploads): encodings by BOM, by flag, or Windows-1252
// when the bytes are not UTF-8; the delimiter sniffed from the header line; a preamble before the header (LinkedIn's
// "Notes:") skipped; records as csv-parser.ts reads them. Rows are numbered by the file line they start on. A record
// that cannot be used (broken quoting, a NUL byte, a wrong column count) becomes a CsvBadRow; a quote that is never
// closed stops the file at the line it opens on, since everything after it would be one value. Files that are not
// text (a workbook, an archive, an image) are refused by their first bytes. Memory stays flat whatever the size.
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { formatCount } from '../format.js';
import { CsvStructureError, parseRecords, recordInfo } from './csv-parser.js';
import { describeNonCsv, looksLikeUtf16WithoutBom } from './file-kind.js';

export type CsvEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1' | 'windows-1252';

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
}

/** A record boundary of a file: its byte, and the file line the record before it ended on. */
export interface CsvPosition {
  byte: number;
  line: number;
}

/** Records read together, and where the first of them starts when a reader can start there again. */
export interface CsvBatch {
  rows: Array<CsvRow | CsvBadRow>;
  from?: CsvPosition;
}

/** A record as read. `row` is the file line it starts on (blank lines and a preamble count; a quoted field with
 * newlines is one record, numbered by its first line), which is where an editor shows it. */
export interface CsvRow {
  row: number;
  fields: string[];
}

/** A record read but not to be used: its fields as read, its text in the file when that says more (broken
 * quoting), and why. */
export interface CsvBadRow {
  row: number;
  fields: string[];
  raw: string | null;
  reason: string;
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
  /** What was guessed and should be said: an encoding that is not UTF-8, a skipped preamble. */
  notes: string[];
  /** Stops reading early (after a look at the header), releasing the file. */
  close(): void;
}

const candidates = [',', ';', '\t', '|'];
const sniffBytes = 64 * 1024;

/** The delimiter seen most often outside quotes on the first line; a tie goes to the comma. */
export function sniffDelimiter(firstLine: string): string {
  const counts = new Map(candidates.map((c) => [c, 0]));
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, counts.get(char)! + 1);
  }
  let best = ',';
  for (const c of candidates) if (counts.get(c)! > counts.get(best)!) best = c;
  return best;
}

function detectEncoding(head: Buffer): { encoding: CsvEncoding; bom: number } {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf8', bom: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf16le', bom: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf16be', bom: 2 };
  return { encoding: 'utf8', bom: 0 };
}

// The WHATWG Encoding Standard reads the label "latin1" (and "iso-8859-1") as windows-1252, which is what such files
// almost always are: 0x80 is €, 0x93/0x94 are smart quotes. Node's own latin1 decoder would turn those into controls.
function iconvName(encoding: CsvEncoding): string {
  return encoding === 'latin1' || encoding === 'windows-1252' ? 'win1252' : encoding;
}

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

function firstLine(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) return text.slice(0, i);
  }
  return text;
}

function isValidUtf8(bytes: Buffer): boolean {
  // A multi-byte character cut by the end of the sample is not an error: leave its last bytes out.
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back]!;
    if (byte >= 0xc0) {
      end -= back;
      break;
    }
    if (byte < 0x80) break;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/** How many delimiters a line holds outside quotes. */
function delimitersIn(line: string, delimiter: string): number {
  let quoted = false;
  let count = 0;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === delimiter) count++;
  }
  return count;
}

/** Leading lines without a single delimiter before a line that has some (LinkedIn's "Notes:" block): a preamble. */
function preambleLines(text: string): number {
  const lines = text.split(/\r\n|\r|\n/).slice(0, 50);
  const filled = (line: string) => line.trim() !== '';
  const delimiter = sniffDelimiter(lines.find((l) => filled(l) && candidates.some((c) => l.includes(c))) ?? '');
  const header = lines.findIndex((line) => filled(line) && delimitersIn(line.trim(), delimiter) > 0);
  // Only blank lines above the header are no preamble: blank lines are skipped anyway.
  if (header <= 0 || header === lines.length - 1 || !lines.slice(0, header).some(filled)) return 0;
  return header;
}

// eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
export async function openCsv(
  input: NodeJS.ReadableStream | Readable,
  options: CsvReadOptions = {},
): Promise<CsvSource> {
  const { head, rest } = await peek(input as AsyncIterable<Buffer>);
  const named = (text: string) => `${options.name ?? 'input'}: ${text}`;
  const notes: string[] = [];
  // A read from a position of a file read before: no BOM, no preamble, no header there; the checks were made then.
  const from = options.from;
  const detected = from ? { encoding: 'utf8' as const, bom: 0 } : detectEncoding(head);
  if (!from && !options.encoding && detected.bom === 0) {
    const kind = describeNonCsv(head);
    if (kind) throw new UsageError(named(`this is not a CSV file: it looks like ${kind.what}`), kind.hint);
    const utf16 = looksLikeUtf16WithoutBom(head);
    if (utf16)
      throw new UsageError(
        named(`looks like ${utf16 === 'utf16le' ? 'UTF-16LE' : 'UTF-16BE'} text without a byte-order mark`),
        `Read it with --encoding ${utf16}, or save it again as "CSV UTF-8".`,
      );
    if (!isValidUtf8(head)) {
      detected.encoding = 'windows-1252';
      notes.push(
        named('is not valid UTF-8; reading it as Windows-1252 (Excel\'s "CSV" on Windows). ') +
          'If names look wrong, give --encoding (utf8, utf16le, utf16be, latin1, windows-1252).',
      );
    }
  }
  const encoding = options.encoding ?? detected.encoding;
  const useHeader = options.header ?? true;

  // The bytes again, from the start, BOM removed when the encoding is the one it announced.
  async function* bytes(): AsyncGenerator<Buffer> {
    yield encoding === detected.encoding ? head.subarray(detected.bom) : head;
    for (let next = await rest.next(); !next.done; next = await rest.next())
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
  // iconv-lite (half a megabyte of code tables) loads only for files that are not UTF-8.
  const iconv = encoding === 'utf8' ? undefined : (await import('iconv-lite')).default;

  const headText = (
    iconv ? iconv.decode(head, iconvName(encoding)) : head.subarray(detected.bom).toString('utf8')
  ).replace(/^\uFEFF/, '');
  const skipLines = from ? 0 : (options.skipLines ?? (useHeader ? preambleLines(headText) : 0));
  if (options.skipLines === undefined && skipLines)
    notes.push(
      named(`skipped ${skipLines} line(s) before the header on line ${skipLines + 1}; --skip-lines N chooses`),
    );
  const headerText = headText
    .split(/\r\n|\r|\n/)
    .slice(skipLines)
    .join('\n');
  const delimiter = options.delimiter ?? sniffDelimiter(firstLine(headerText));
  const maxRecordChars = options.maxRecordChars ?? 32 * 2 ** 20;
  const records = parseRecords(bytes(), {
    delimiter,
    maxRecordChars,
    skipLines,
    midFile: Boolean(from),
    decoder: iconv?.getDecoder(iconvName(encoding)),
  });
  /** The file byte where the bytes the parser reads start. */
  const byteBase = from ? from.byte : encoding === detected.encoding ? detected.bom : 0;

  /** The file line the last record read ended on. */
  let line = from ? from.line : skipLines;
  /** Where reading stopped for good: the record after the last one read. */
  const stopped = (error: unknown): never => {
    if (!(error instanceof CsvStructureError)) throw error;
    const start = line + 1;
    if (error.kind === 'unclosed-quote') {
      const more = error.lines > 0 ? ` (${error.lines} more line${error.lines === 1 ? '' : 's'})` : '';
      throw new UsageError(
        named(
          `line ${start}: a quoted field opens here and is never closed, so the rest of the file${more} would be one value`,
        ),
        `Fix the quoting on line ${start} (a value with a " must be quoted, its " doubled). Rows before it are read.`,
      );
    }
    const limit = `${formatCount(maxRecordChars)} characters`;
    if (!error.quoted)
      throw new UsageError(
        named(`line ${start}: the record starting here grows past ${limit} without a line break`),
        'Is this a CSV file with one record a line? Rows before it are read.',
      );
    throw new UsageError(
      named(
        `line ${start}: the record starting here grows past ${limit}; a quote opened on this line is probably never closed`,
      ),
      `Fix the quoting on line ${start} (a value with a " must be quoted, its " doubled). Rows before it are read.`,
    );
  };
  const isBlank = (fields: string[]) => fields.length === 1 && fields[0]!.trim() === '';
  /** The next record that is not a blank line, counting lines as it goes. */
  const nextRecord = async (): Promise<string[] | undefined> => {
    for (
      let fields = records.next() ?? (await records.fill());
      fields;
      fields = records.next() ?? (await records.fill())
    ) {
      if (!isBlank(fields)) return fields;
      line += 1 + (recordInfo(fields)?.lineBreaks ?? 0);
    }
    return undefined;
  };

  let header: string[] = from?.header ?? [];
  let first: string[] | undefined;
  // A read from a noted place starts below the header, which was read before.
  const firstRecord = from ? undefined : await nextRecord().catch(stopped);
  if (!from && useHeader) {
    if (!firstRecord && options.skipLines)
      throw new UsageError(named(`--skip-lines ${options.skipLines}: no header line after line ${options.skipLines}`));
    if (!firstRecord) {
      const blank = head.length > detected.bom;
      throw new UsageError(
        named(blank ? 'holds only blank lines or spaces: no header, no rows' : 'is empty (0 bytes): no header line'),
        'A prospect CSV starts with a header line naming the columns (Email, First Name, ...).',
      );
    }
    const bad = recordInfo(firstRecord)?.bad;
    if (bad) throw new UsageError(named(`the header line cannot be read: ${bad.reason}`));
    header = firstRecord.map((cell) => cell.replace(/^\uFEFF/, '').trim());
    line += 1 + (recordInfo(firstRecord)?.lineBreaks ?? 0);
  } else first = firstRecord;
  const width = header.length;

  async function* batches(): AsyncGenerator<CsvBatch> {
    let batch: Array<CsvRow | CsvBadRow> = [];
    /** Where the records of `batch` start, when the parser knows it (never for the first, which holds the header). */
    let position: CsvPosition | undefined;
    const add = (fields: string[]) => {
      const row = line + 1;
      const info = recordInfo(fields);
      line += 1 + (info?.lineBreaks ?? 0);
      if (info?.bad) batch.push({ row, fields, raw: info.bad.raw, reason: info.bad.reason });
      else if (useHeader && fields.length !== width)
        batch.push({ row, fields, raw: null, reason: `expected ${width} columns, found ${fields.length}` });
      else batch.push({ row, fields });
    };
    try {
      if (first) add(first);
      for (;;) {
        let fields = records.next();
        if (!fields) {
          if (batch.length) yield { rows: batch, from: position };
          batch = [];
          fields = await records.fill();
          if (!fields) break;
          const byte = records.batchStart();
          position = byte === undefined ? undefined : { byte: byteBase + byte, line };
        }
        if (isBlank(fields)) line += 1 + (recordInfo(fields)?.lineBreaks ?? 0);
        else add(fields);
      }
    } catch (error) {
      // A quote never closed stops the file, but the rows before it are read.
      if (batch.length) yield { rows: batch };
      stopped(error);
    }
    if (batch.length) yield { rows: batch, from: position };
  }

  async function* rows(): AsyncGenerator<CsvRow | CsvBadRow> {
    for await (const batch of batches()) yield* batch.rows;
  }

  return {
    header,
    delimiter,
    encoding,
    skipLines,
    notes,
    rows: rows(),
    batches: batches(),
    close: () => records.close(),
  };
}
