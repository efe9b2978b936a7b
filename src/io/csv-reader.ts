// The one streaming CSV reader of the tool (prospect imports, DNC uploads): encodings by BOM or flag, the delimiter
// sniffed from the header line, quoted fields with delimiters, quotes and newlines, CRLF or LF. Bad records become
// CsvBadRow values with their row number instead of stopping the file. Memory stays flat whatever the size.
import { Readable, pipeline } from 'node:stream';
import { parse, type CsvError, type Options } from 'csv-parse';
import { UsageError } from '../errors.js';

export type CsvEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'latin1' | 'windows-1252';

export interface CsvReadOptions {
  /** Forced encoding; by default UTF-16 is recognised by its BOM and anything else is read as UTF-8. */
  encoding?: CsvEncoding;
  /** Forced delimiter; by default sniffed among , ; tab | from the header line. */
  delimiter?: string;
  /** Whether the first record is a header (default true). */
  header?: boolean;
  /** A record longer than this is reported as broken (an unclosed quote would otherwise swallow the file). */
  maxRecordBytes?: number;
}

/** A record as read. `row` is what a spreadsheet shows: the header is row 1, and a quoted field with newlines is still one row. */
export interface CsvRow {
  row: number;
  fields: string[];
}

export interface CsvBadRow {
  row: number;
  fields: string[] | null;
  raw: string | null;
  reason: string;
}

export interface CsvSource {
  header: string[];
  delimiter: string;
  encoding: CsvEncoding;
  rows: AsyncIterable<CsvRow | CsvBadRow>;
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

function describeError(error: CsvError): string {
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'broken quoting: a quoted field is never closed';
    case 'CSV_INVALID_CLOSING_QUOTE':
      return 'broken quoting: text follows a closing quote';
    case 'CSV_MAX_RECORD_SIZE':
      return 'broken quoting: the record grew past the size limit (an unclosed quote?)';
    default:
      return `unreadable record: ${error.message}`;
  }
}

export async function openCsv(
  input: NodeJS.ReadableStream | Readable,
  options: CsvReadOptions = {},
): Promise<CsvSource> {
  const { head, rest } = await peek(input as AsyncIterable<Buffer>);
  const detected = detectEncoding(head);
  const encoding = options.encoding ?? detected.encoding;
  const useHeader = options.header ?? true;

  // The bytes again, from the start, BOM removed; decoded to text unless they are UTF-8 (csv-parse reads bytes faster).
  async function* bytes(): AsyncGenerator<Buffer> {
    yield encoding === detected.encoding ? head.subarray(detected.bom) : head;
    for (let next = await rest.next(); !next.done; next = await rest.next())
      yield typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
  }
  // iconv-lite (half a megabyte of code tables) loads only for files that are not UTF-8.
  const iconv = encoding === 'utf8' ? undefined : (await import('iconv-lite')).default;
  const stages: NodeJS.ReadWriteStream[] = iconv ? [iconv.decodeStream(iconvName(encoding))] : [];

  const headText = iconv ? iconv.decode(head, iconvName(encoding)) : head.subarray(detected.bom).toString('utf8');
  const delimiter = options.delimiter ?? sniffDelimiter(firstLine(headText.replace(/^\uFEFF/, '')));

  // Bad records are reported by on_skip with the count of records parsed before them; the consumer puts each
  // back in its place. (No on_record hook: it costs an info object per record, a third of the reading speed.)
  const skipped: Array<{ after: number; fields: null; raw: string | null; reason: string }> = [];
  const parserOptions: Options = {
    delimiter,
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    max_record_size: options.maxRecordBytes ?? 1024 * 1024,
    on_skip: (error: CsvError | undefined, raw: string | undefined) => {
      if (error)
        skipped.push({
          after: typeof error.records === 'number' ? error.records : 0,
          fields: null,
          raw: raw ?? null,
          reason: describeError(error),
        });
      return undefined;
    },
  };
  const parser = parse(parserOptions);
  // pipeline, not pipe: a read or decode error reaches the consumer through the parser instead of being lost.
  pipeline([Readable.from(bytes()), ...stages, parser], () => undefined);
  const iterator: AsyncIterator<string[]> = parser[Symbol.asyncIterator]();

  let records = 0;
  let row = 0;
  let header: string[] = [];
  let first: string[] | undefined;
  const next = await iterator.next();
  if (!next.done) records = 1;
  if (useHeader) {
    if (next.done) throw new UsageError('the file is empty: no header line');
    if (skipped.length && skipped[0]!.after === 0)
      throw new UsageError(`the header line cannot be read: ${skipped[0]!.reason}`);
    header = next.value.map((cell) => cell.replace(/^\uFEFF/, '').trim());
    row = 1;
  } else if (!next.done) {
    first = next.value;
  }
  const width = header.length;

  async function* rows(): AsyncGenerator<CsvRow | CsvBadRow> {
    // Bad records parsed before the `count`-th good one, in file order.
    function* badBefore(count: number): Generator<CsvBadRow> {
      while (skipped.length && skipped[0]!.after < count) {
        const bad = skipped.shift()!;
        yield { row: ++row, fields: bad.fields, raw: bad.raw, reason: bad.reason };
      }
    }
    const good = (fields: string[]): CsvRow | CsvBadRow => {
      row++;
      if (useHeader && fields.length !== width && !(fields.length === 1 && fields[0] === '')) {
        return { row, fields, raw: null, reason: `expected ${width} columns, found ${fields.length}` };
      }
      return { row, fields };
    };
    if (first) {
      yield* badBefore(1);
      yield good(first);
    }
    for (let item = await iterator.next(); !item.done; item = await iterator.next()) {
      records++;
      if (skipped.length) yield* badBefore(records);
      yield good(item.value);
    }
    yield* badBefore(Infinity);
  }

  return { header, delimiter, encoding, rows: rows(), close: () => void parser.destroy() };
}
