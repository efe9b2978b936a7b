// The fast path of the CSV reader, for UTF-8 files: records are cut with indexOf and split() instead of csv-parse's
// byte-by-byte state machine (about a quarter of its CPU on real exports). It reads exactly what csv-parse reads for
// regular CSV: unquoted fields, quoted fields with "" escapes and line breaks inside, LF or CRLF records, blank lines
// as one empty field. At the first record it is not sure of (a quote inside an unquoted field, text after a closing
// quote, a lone CR ending a line, a quote never closed, a record past the size limit) it hands that record and
// everything after it to csv-parse, so odd files are read the same way as before, only slower from that point.
import { StringDecoder } from 'node:string_decoder';
import { parse, type Options } from 'csv-parse';
import { recordsOf, type RecordSource } from './csv-records.js';

export interface FastCsvOptions {
  delimiter: string;
  maxRecordBytes: number;
  /** csv-parse's options for the records after a hand-over (its on_skip reports bad records). */
  fallback: Options;
  /** Told how many records and lines came before the hand-over, so its on_skip counts can be placed. */
  onHandOver(records: number, lines: number): void;
  /** How records end, when a read starts in the middle of a file (at a place batchStart gave) whose first line said
   * so. Such a read keeps a U+FEFF at its start: it is a value there, not a byte-order mark. */
  eol?: string;
}

const quote = '"';

/** Parses complete records of `text` from `start`; stops at the first record that is incomplete or irregular. */
class RecordCutter {
  /** The record delimiter once seen: '\n' or '\r\n' (csv-parse finds it on the first line too). */
  eol: string | undefined;
  records: string[][] = [];
  /** Where the first record not yet parsed starts. */
  pos = 0;
  /** Why parsing stopped: more text is needed, or csv-parse must take over. */
  stop: 'more' | 'irregular' = 'more';
  /** Line breaks in the records parsed so far (csv-parse's `lines` counter, for placing its on_skip reports). */
  lines = 0;

  /** @param longest Records longer than this (in characters) go to csv-parse, which applies its size limit. */
  constructor(
    private readonly delimiter: string,
    readonly longest: number,
  ) {}

  cut(text: string, final: boolean): void {
    const d = this.delimiter;
    let pos = this.pos;
    // The next quote at or after pos: a record that ends before it has none and is a plain split.
    let nextQuote = text.indexOf(quote, pos);
    this.stop = 'irregular';
    while (pos < text.length) {
      const eol = this.eol;
      if (eol !== undefined) {
        const end = text.indexOf(eol, pos);
        if (end === -1 && !final) {
          this.stop = 'more';
          break;
        }
        const lineEnd = end === -1 ? text.length : end;
        if (nextQuote !== -1 && nextQuote < pos) nextQuote = text.indexOf(quote, pos);
        if (lineEnd - pos > this.longest) break;
        if (nextQuote === -1 || nextQuote >= lineEnd) {
          this.records.push(text.slice(pos, lineEnd).split(d));
          this.lines++;
          pos = end === -1 ? text.length : end + eol.length;
          continue;
        }
      }
      // A record with quotes, or the first one (which also says how records end).
      const next = this.fieldByField(text, pos, final);
      if (next < 0) {
        this.pos = pos;
        return;
      }
      pos = next;
    }
    this.pos = pos;
    if (pos >= text.length) this.stop = 'more';
  }

  /** Where the line from `pos` ends: at the record delimiter, or before it is known at the first CR or LF. */
  private lineEnd(text: string, pos: number): number {
    if (this.eol !== undefined) return text.indexOf(this.eol, pos);
    const lf = text.indexOf('\n', pos);
    const cr = text.indexOf('\r', pos);
    return cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
  }

  /** One record, field by field; the position after it, or -1 (stop set) when it cannot be cut here. */
  private fieldByField(text: string, start: number, final: boolean): number {
    const d = this.delimiter;
    const fields: string[] = [];
    let pos = start;
    let breaks = 0;
    for (;;) {
      let value: string;
      if (text[pos] === quote) {
        value = '';
        let from = pos + 1;
        for (;;) {
          const q = text.indexOf(quote, from);
          if (q === -1) return this.halt(final ? 'irregular' : 'more');
          if (text[q + 1] === quote) {
            value += text.slice(from, q + 1);
            from = q + 2;
            continue;
          }
          if (q + 1 === text.length && !final) return this.halt('more');
          value += text.slice(from, q);
          pos = q + 1;
          break;
        }
        breaks += countBreaks(value, this.eol ?? '\n');
      } else {
        let end = text.indexOf(d, pos);
        const lineEnd = this.lineEnd(text, pos);
        if (lineEnd !== -1 && (end === -1 || lineEnd < end)) end = lineEnd;
        if (end === -1) {
          if (!final) return this.halt('more');
          end = text.length;
        }
        value = text.slice(pos, end);
        // csv-parse keeps such quotes as they are (relax_quotes), but its rules there are its own: let it read them.
        if (value.includes(quote)) return this.halt('irregular');
        pos = end;
      }
      fields.push(value);
      if (text.startsWith(d, pos)) {
        pos += d.length;
        continue;
      }
      if (pos === text.length) {
        if (!final) return this.halt('more');
      } else {
        const eol = this.eol ?? this.recordDelimiterAt(text, pos, final);
        if (eol === 'more' || eol === 'irregular') return this.halt(eol);
        if (!text.startsWith(eol, pos)) {
          // In a CRLF file a CR at the end of the text may be the first half of the next CRLF.
          if (eol === '\r\n' && text[pos] === '\r' && pos + 1 === text.length && !final) return this.halt('more');
          return this.halt('irregular');
        }
        this.eol = eol;
        pos += eol.length;
      }
      if (pos - start > this.longest) return this.halt('irregular');
      this.records.push(fields);
      this.lines += 1 + breaks;
      return pos;
    }
  }

  /** The first record delimiter, at `pos`: LF or CRLF; a lone CR (old Mac files) is csv-parse's to read. */
  private recordDelimiterAt(text: string, pos: number, final: boolean): string {
    if (text[pos] === '\n') return '\n';
    if (text[pos] !== '\r') return 'irregular';
    if (text[pos + 1] === '\n') return '\r\n';
    return pos + 1 === text.length && !final ? 'more' : 'irregular';
  }

  private halt(why: 'more' | 'irregular'): number {
    this.stop = why;
    return -1;
  }
}

function countBreaks(value: string, eol: string): number {
  let n = 0;
  for (let at = value.indexOf(eol); at !== -1; at = value.indexOf(eol, at + eol.length)) n++;
  return n;
}

/** The records of a UTF-8 byte stream (BOM already removed), read by the fast path until a record needs csv-parse. */
export function fastRecords(input: AsyncIterator<Buffer>, options: FastCsvOptions): RecordSource {
  const decoder = new StringDecoder('utf8');
  // csv-parse's limit counts its own buffers; a quarter of it in characters is safely inside it.
  const cutter = new RecordCutter(options.delimiter, Math.floor(options.maxRecordBytes / 4));
  cutter.eol = options.eol;
  let text = '';
  /** The input's byte where `text` starts: a record boundary, where a reader may start again. Counted by encoding the
   * text again, which holds only while every byte decoded as itself: after a U+FFFD (bytes that were not UTF-8 come
   * out as one, and encode back as three bytes) the places are not trusted any more. */
  let textByte = 0;
  let placesLost = false;
  let taken = 0;
  let ended = false;
  let fallback: RecordSource | undefined;
  let records = 0;

  const handOver = () => {
    options.onHandOver(records, cutter.lines);
    const parser = parse({
      ...options.fallback,
      bom: false,
      from_line: 1,
      ...(cutter.eol && records ? { record_delimiter: cutter.eol } : {}),
    });
    const rest = text.slice(cutter.pos);
    text = '';
    fallback = recordsOf(parser);
    void (async () => {
      try {
        if (rest && !parser.write(rest)) await waitDrain(parser);
        // Through the same decoder: a character may be cut between the text already read and the next bytes.
        if (!ended)
          for (let next = await input.next(); !next.done; next = await input.next())
            if (!parser.write(decoder.write(next.value))) await waitDrain(parser);
        parser.end(ended ? undefined : decoder.end());
      } catch (error) {
        parser.destroy(error as Error);
      }
    })();
  };

  const take = (): string[] | undefined => {
    if (taken < cutter.records.length) {
      records++;
      return cutter.records[taken++];
    }
    return undefined;
  };

  return {
    next() {
      return fallback ? fallback.next() : take();
    },
    async fill() {
      for (;;) {
        if (fallback) return fallback.fill();
        const record = take();
        if (record) return record;
        if (cutter.stop === 'irregular' || (ended && cutter.pos < text.length)) {
          handOver();
          continue;
        }
        if (ended) return undefined;
        const next = await input.next();
        cutter.records = [];
        taken = 0;
        textByte += Buffer.byteLength(text.slice(0, cutter.pos));
        text = text.slice(cutter.pos);
        cutter.pos = 0;
        ended = Boolean(next.done);
        const decoded = next.done ? decoder.end() : decoder.write(next.value);
        text += decoded;
        if (!placesLost && decoded.includes('\uFFFD')) placesLost = true;
        if (records === 0 && options.eol === undefined && text.charCodeAt(0) === 0xfeff) {
          text = text.slice(1);
          textByte += 3;
        }
        cutter.cut(text, ended);
        // A record this long is csv-parse's to refuse with its size limit.
        if (cutter.stop === 'more' && text.length - cutter.pos > cutter.longest) cutter.stop = 'irregular';
      }
    },
    close() {
      ended = true;
      void input.return?.();
      fallback?.close();
    },
    batchStart() {
      return fallback || placesLost ? undefined : { byte: textByte, eol: cutter.eol };
    },
  };
}

function waitDrain(parser: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => parser.once('drain', resolve));
}
