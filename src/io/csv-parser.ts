// The CSV record parser of the tool. Its rules are those of Python's csv module and Excel (RFC 4180, read leniently),
// decided per record so that files joined with `cat` read as their parts do:
// - A record ends at LF, CRLF or a lone CR outside quotes (old Mac files), whichever each line has.
// - A field that starts with a quote (after spaces, which are layout) is quoted: "" is a quote; delimiters and line
//   breaks are data up to the closing quote. Spaces after the closing quote are layout too (`"B" ,C` reads B).
// - Any other text after a closing quote (`"a"b`) makes the record bad: it is read as Python reads it (the text joins
//   the value) so the next records keep their places, but it is never sent as if it were right.
// - A quote inside an unquoted field is data (`5'11"`, `Dwayne "The Rock" Johnson`).
// - A NUL byte in a field makes that record bad, not the file.
// - A quote never closed, or a record longer than the limit, stops the file: everything after would be one value.
// Plain records (no quote, no NUL, no CR but before the LF) are cut with indexOf and split(), which is most of any
// real file; the rest goes field by field.
import { StringDecoder } from 'node:string_decoder';

/** What the parser knows of a record beyond its fields; only records that span lines or are bad carry it. */
export interface RecordInfo {
  /** Line breaks inside the record (in quoted fields). */
  lineBreaks: number;
  /** A record that was read but must not be used as it is: why, and its text as it stands in the file. */
  bad?: { reason: string; raw: string };
}

const infoMark = Symbol('record info');
type MarkedRecord = string[] & { [infoMark]?: RecordInfo };

export function recordInfo(fields: string[]): RecordInfo | undefined {
  return (fields as MarkedRecord)[infoMark];
}

/** The file cannot be read past a record: a quote never closed, or a record past the size limit. `lines` counts the
 * line breaks from the record's start to where reading stopped; `quoted` says whether a quote opened in it. */
export class CsvStructureError extends Error {
  constructor(
    readonly kind: 'unclosed-quote' | 'too-long',
    readonly lines: number,
    readonly quoted = true,
  ) {
    super(kind);
  }
}

export interface RecordSource {
  /** A record already parsed, without waiting; undefined when none is ready. */
  next(): string[] | undefined;
  /** Waits for the next record; undefined at the end. */
  fill(): Promise<string[] | undefined>;
  /** Stops reading and releases the input. */
  close(): void;
  /** The input's byte where the records of the last fill() start, while bytes are counted (UTF-8 decoded cleanly). */
  batchStart(): number | undefined;
}

export interface TextDecoderLike {
  write(bytes: Buffer): string;
  end(): string | undefined;
}

export interface CsvParserOptions {
  delimiter: string;
  /** A record longer than this (in characters) stops the file. */
  maxRecordChars: number;
  /** Physical lines to pass over before the first record (a preamble). */
  skipLines?: number;
  /** How bytes become text (default UTF-8); byte places are counted only for UTF-8. */
  decoder?: TextDecoderLike;
  /** The input starts at a record boundary in the middle of a file: a U+FEFF there is a value, not a byte-order mark. */
  midFile?: boolean;
}

const quote = '"';

/** A field's text for a message: short, on one line. */
function excerpt(text: string): string {
  const line = text.replace(/\r\n|\r|\n/g, '⏎');
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** Counts line breaks (LF, CRLF, lone CR) in a text. */
function lineBreaks(text: string): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) if (text[at + 1] !== '\n') n++;
  return n;
}

/** Parses complete records of `text` from `pos`; stops where a record is not complete yet. */
class RecordCutter {
  records: string[][] = [];
  /** Where the first record not yet parsed starts. */
  pos = 0;
  // The next quote, CR, LF and NUL at or after some earlier place: found once, reused until passed.
  private quoteAt = -2;
  private crAt = -2;
  private lfAt = -2;
  private nulAt = -2;
  private text = '';
  /** A record that did not end in the text was parsed up to this many characters: it is tried again only once the
   * text holds twice as many, so a record longer than many reads costs a few parses, not one a read. */
  private retryAt = 0;
  /** The record being read field by field: its fields so far, why it is bad (if it is), whether a quoted value holds
   * a line break (only they can), and where its last field read ended. */
  private fields: MarkedRecord = [];
  private reason: string | undefined;
  private spansLines = false;
  private at = 0;

  constructor(
    private readonly delimiter: string,
    private readonly longest: number,
  ) {}

  private next(char: string, cached: number, pos: number): number {
    return cached !== -1 && cached < pos ? this.text.indexOf(char, pos) : cached;
  }

  /** Parses what it can of `text` (kept from `pos` on by the caller between calls). */
  cut(text: string, final: boolean): void {
    this.text = text;
    this.quoteAt = this.crAt = this.lfAt = this.nulAt = -2;
    const d = this.delimiter;
    let pos = this.pos;
    while (pos < text.length) {
      // A record that did not end in the text before is not looked at again until the text has doubled.
      if (!final && text.length - pos < this.retryAt) break;
      this.lfAt = this.next('\n', this.lfAt, pos);
      this.crAt = this.next('\r', this.crAt, pos);
      this.quoteAt = this.next(quote, this.quoteAt, pos);
      this.nulAt = this.next('\0', this.nulAt, pos);
      const lf = this.lfAt;
      const lineEnd = lf === -1 ? text.length : lf;
      const plain =
        (lf !== -1 || final) &&
        (this.quoteAt === -1 || this.quoteAt >= lineEnd) &&
        (this.nulAt === -1 || this.nulAt >= lineEnd) &&
        (this.crAt === -1 || this.crAt >= lineEnd - 1);
      if (plain) {
        if (lineEnd - pos > this.longest) throw this.tooLong(pos);
        const end = this.crAt !== -1 && this.crAt === lineEnd - 1 ? lineEnd - 1 : lineEnd;
        this.records.push(text.slice(pos, end).split(d));
        pos = lf === -1 ? text.length : lf + 1;
        this.retryAt = 0;
        continue;
      }
      const next = this.fieldByField(pos, final);
      if (next < 0) {
        this.retryAt = 2 * (text.length - pos);
        break;
      }
      this.retryAt = 0;
      pos = next;
    }
    this.pos = pos;
    if (!final && text.length - pos > this.longest) throw this.tooLong(pos);
  }

  private tooLong(start: number): CsvStructureError {
    return new CsvStructureError('too-long', 0, this.text.indexOf(quote, start) !== -1);
  }

  /** Where the unquoted text from `pos` ends: the next delimiter or line break, or -1 when not in the text yet. */
  private unquotedEnd(pos: number): number {
    this.lfAt = this.next('\n', this.lfAt, pos);
    this.crAt = this.next('\r', this.crAt, pos);
    let end = this.text.indexOf(this.delimiter, pos);
    if (this.lfAt !== -1 && (end === -1 || this.lfAt < end)) end = this.lfAt;
    if (this.crAt !== -1 && (end === -1 || this.crAt < end)) end = this.crAt;
    return end;
  }

  /** One record, field by field; the position after it, or -1 when the text does not hold all of it yet. */
  private fieldByField(start: number, final: boolean): number {
    const text = this.text;
    const d = this.delimiter;
    this.fields = freshRecord();
    this.reason = undefined;
    this.spansLines = false;
    let pos = start;
    for (;;) {
      let open = pos;
      while ((text[open] === ' ' || text[open] === '\t') && text[open] !== d) open++;
      const read = text[open] === quote ? this.quotedField(start, open, final) : this.unquotedField(pos, final);
      if (read !== fieldRead) return read === moreNeeded ? -1 : text.length;
      pos = this.at;
      if (!text.startsWith(d, pos)) return this.endRecord(start, pos, final);
      pos += d.length;
    }
  }

  /** A quoted field from its opening quote at `open`: its value joins the record and `at` goes past it. */
  private quotedField(start: number, open: number, final: boolean): FieldResult {
    const text = this.text;
    // The closing quote is the first one not doubled; the pairs before it are undone in one pass.
    let from = open + 1;
    let pairs = false;
    let closing: number;
    for (;;) {
      closing = text.indexOf(quote, from);
      if (closing === -1) return final ? this.neverClosed(start, open, pairs) : moreNeeded;
      if (closing + 1 === text.length && !final) return moreNeeded;
      if (text[closing + 1] !== quote) break;
      pairs = true;
      from = closing + 2;
    }
    let value = text.slice(open + 1, closing);
    if (pairs) value = value.replaceAll('""', '"');
    this.spansLines ||= value.includes('\n') || value.includes('\r');
    let after = closing + 1;
    while ((text[after] === ' ' || text[after] === '\t') && text[after] !== this.delimiter) after++;
    if (after === text.length && !final) return moreNeeded;
    const ends =
      after === text.length || text.startsWith(this.delimiter, after) || text[after] === '\n' || text[after] === '\r';
    if (ends) this.at = after;
    else {
      // Python joins the text after the closing quote to the value; the record is read, and marked.
      let end = this.unquotedEnd(after);
      if (end === -1) {
        if (!final) return moreNeeded;
        end = text.length;
      }
      const column = this.fields.length + 1;
      this.reason ??= `broken quoting in column ${column}: text follows its closing quote (${excerpt(text.slice(open, end))})`;
      value += text.slice(closing + 1, end);
      this.at = end;
    }
    this.fields.push(value);
    return fieldRead;
  }

  /** A quote opened at `open` and the input ended: on the last line nothing follows that it could swallow, so that
   * record alone is refused; on an earlier line the rest of the file would be one value, so reading stops. */
  private neverClosed(start: number, open: number, pairs: boolean): FieldResult {
    const text = this.text;
    const rest = lineBreaks(text.slice(start).replace(/[\r\n]+$/, ''));
    if (rest) throw new CsvStructureError('unclosed-quote', rest);
    const end = text.replace(/[\r\n]+$/, '').length;
    const inside = text.slice(open + 1, end);
    this.fields.push(pairs ? inside.replaceAll('""', '"') : inside);
    const reason = `a quote opens in column ${this.fields.length} and is never closed`;
    Object.defineProperty(this.fields, infoMark, {
      value: { lineBreaks: 0, bad: { reason, raw: text.slice(start, end) } },
    });
    this.records.push(this.fields);
    return recordRead;
  }

  private unquotedField(pos: number, final: boolean): FieldResult {
    let end = this.unquotedEnd(pos);
    if (end === -1) {
      if (!final) return moreNeeded;
      end = this.text.length;
    }
    this.fields.push(this.text.slice(pos, end));
    this.at = end;
    return fieldRead;
  }

  /** The record's last field ends at `end`: past its line break, the record is checked, marked and taken. */
  private endRecord(start: number, end: number, final: boolean): number {
    const text = this.text;
    let pos = end;
    if (pos === text.length) {
      if (!final) return -1;
    } else if (text[pos] === '\r') {
      if (pos + 1 === text.length && !final) return -1; // the CR of a CRLF cut in two
      pos += text[pos + 1] === '\n' ? 2 : 1;
    } else pos += 1;
    if (pos - start > this.longest) throw this.tooLong(start);
    const fields = this.fields;
    this.nulAt = this.next('\0', this.nulAt, start);
    if (this.nulAt !== -1 && this.nulAt < end) {
      const column = fields.findIndex((field) => field.includes('\0')) + 1;
      this.reason ??= `column ${column} holds a NUL byte (binary data, not text)`;
    }
    const reason = this.reason;
    // Not enumerable: the record stays a plain array of strings to whoever looks at it.
    if (reason || this.spansLines)
      Object.defineProperty(fields, infoMark, {
        value: {
          lineBreaks: this.spansLines ? lineBreaks(text.slice(start, end)) : 0,
          ...(reason ? { bad: { reason, raw: text.slice(start, end) } } : {}),
        },
      });
    this.records.push(fields);
    return pos;
  }
}

/** What reading a field came to: the field (read on), the text ends before it does, or the record was taken whole. */
const fieldRead = 0;
const moreNeeded = 1;
const recordRead = 2;
type FieldResult = typeof fieldRead | typeof moreNeeded | typeof recordRead;

/** An empty record, made by copying one rather than by a literal `[]`: V8 keeps allocation feedback for each literal
 * and may decide that its arrays start in the old generation. After the DNC read it decided so for this one
 * (--trace-pretenuring-statistics; what in the read tipped it we did not find), and an import of a million rows then
 * put every record, and each value in it, in the old generation until a full collection: 28 of them instead of 4,
 * and some 13 MB more at the peak. A copy made by a builtin carries no such feedback. */
const noFields: string[] = [];
const freshRecord = (): MarkedRecord => noFields.slice();

/** The records of a byte stream, parsed as they arrive; a byte-order mark at the start of a file is dropped. */
export function parseRecords(input: AsyncIterator<Buffer>, options: CsvParserOptions): RecordSource {
  /** Why reading stopped, told once the records before it are taken. */
  let failure: unknown;
  const decoder = options.decoder ?? new StringDecoder('utf8');
  const utf8 = !options.decoder;
  const cutter = new RecordCutter(options.delimiter, options.maxRecordChars);
  let skip = options.skipLines ?? 0;
  let text = '';
  /** The input's byte where `text` starts. Counted by encoding the text again, which holds only while every byte
   * decoded as itself: after a U+FFFD (bytes that were not UTF-8 come out as one, and encode back as three bytes)
   * the places are not trusted any more. */
  let textByte = 0;
  let placesLost = !utf8;
  let taken = 0;
  let ended = false;
  let started = false;

  /** Passes over the preamble's lines; false while the text does not reach past them yet. */
  const skipPreamble = (): boolean => {
    while (skip > 0) {
      const lf = text.indexOf('\n');
      const cr = text.indexOf('\r');
      let end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (end === -1 || (end === cr && end + 1 === text.length && !ended)) {
        if (!ended) return false;
        end = text.length;
      }
      const next = text[end] === '\r' && text[end + 1] === '\n' ? end + 2 : end + 1;
      if (!placesLost) textByte += Buffer.byteLength(text.slice(0, next));
      text = text.slice(next);
      skip--;
    }
    return true;
  };

  const take = (): string[] | undefined => (taken < cutter.records.length ? cutter.records[taken++] : undefined);

  return {
    next: take,
    async fill() {
      for (;;) {
        const record = take();
        if (record) return record;
        if (failure) throw failure;
        if (ended) return undefined;
        const next = await input.next();
        cutter.records = [];
        taken = 0;
        if (!placesLost) textByte += Buffer.byteLength(text.slice(0, cutter.pos));
        text = text.slice(cutter.pos);
        cutter.pos = 0;
        ended = Boolean(next.done);
        const decoded = (next.done ? decoder.end() : decoder.write(next.value)) ?? '';
        text += decoded;
        if (decoded.includes('\uFFFD')) placesLost = true;
        if (!started && text.length) {
          if (!options.midFile && text.charCodeAt(0) === 0xfeff) {
            text = text.slice(1);
            textByte += 3;
          }
          started = true;
        }
        try {
          if (skipPreamble()) cutter.cut(text, ended);
        } catch (error) {
          failure = error;
        }
      }
    },
    close() {
      ended = true;
      void input.return?.();
    },
    batchStart: () => (placesLost ? undefined : textByte),
  };
}
