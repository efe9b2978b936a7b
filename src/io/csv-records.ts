// The records of a CSV file as rows: numbered by the file line each starts on (blank lines skipped but counted, a
// quoted field with line breaks one record), checked (broken quoting, a NUL byte, a wrong column count make a bad
// row), handed over in batches that say where in the file they start, so a reader can start there again. A record
// that stops the file (a quote never closed, one past the size limit) is said with its line.
import { UsageError } from '../errors.js';
import { formatCount } from '../format.js';
import { CsvStructureError, recordInfo, type RecordSource } from './csv-parser.js';

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

export interface CsvRecordsSettings {
  /** The file line the first record follows. */
  line: number;
  /** The file byte where the bytes the parser reads start. */
  byteBase: number;
  maxRecordChars: number;
  named(text: string): string;
}

/** A blank line, or a line of delimiters alone (`;;;;`, as spreadsheets export the empty rows under their data): no
 * value to send, check or report. */
const isBlank = (fields: string[]) => fields.every((field) => field.trim() === '');

export class CsvRecords {
  /** The file line the last record read ended on. */
  private line: number;

  constructor(
    private readonly records: RecordSource,
    private readonly settings: CsvRecordsSettings,
  ) {
    this.line = settings.line;
  }

  /** The first record that is not a blank line; not counted until it is passed over (a header) or made a row. */
  async first(): Promise<string[] | undefined> {
    return this.nextUnread().catch((error: unknown) => this.stopped(error));
  }

  /** A record read that is not a row (the header): its lines are counted. */
  passOver(fields: string[]): void {
    this.line += 1 + (recordInfo(fields)?.lineBreaks ?? 0);
  }

  /** The rows, `first` (a record peeked at) ahead of them, checked against `width` columns when there is a header. */
  async *batches(first: string[] | undefined, width: number | undefined): AsyncGenerator<CsvBatch> {
    const { records } = this;
    let batch: Array<CsvRow | CsvBadRow> = [];
    /** Where the records of `batch` start, when the parser knows it (never for the first, which holds the header). */
    let position: CsvPosition | undefined;
    try {
      if (first) batch.push(this.row(first, width));
      for (;;) {
        let fields = records.next();
        if (!fields) {
          if (batch.length) yield { rows: batch, from: position };
          batch = [];
          fields = await records.fill();
          if (!fields) break;
          const byte = records.batchStart();
          position = byte === undefined ? undefined : { byte: this.settings.byteBase + byte, line: this.line };
        }
        if (isBlank(fields)) this.passOver(fields);
        else batch.push(this.row(fields, width));
      }
    } catch (error) {
      // A quote never closed stops the file, but the rows before it are read.
      if (batch.length) yield { rows: batch };
      this.stopped(error);
    }
    if (batch.length) yield { rows: batch, from: position };
  }

  private async nextUnread(): Promise<string[] | undefined> {
    const { records } = this;
    for (
      let fields = records.next() ?? (await records.fill());
      fields;
      fields = records.next() ?? (await records.fill())
    ) {
      if (!isBlank(fields)) return fields;
      this.passOver(fields);
    }
    return undefined;
  }

  private row(fields: string[], width: number | undefined): CsvRow | CsvBadRow {
    const row = this.line + 1;
    const info = recordInfo(fields);
    this.passOver(fields);
    if (info?.bad) return { row, fields, raw: info.bad.raw, reason: info.bad.reason };
    if (width !== undefined && fields.length !== width) {
      // Empty cells past the last column (a trailing comma, as spreadsheets leave) hold nothing to lose.
      if (fields.length > width && fields.slice(width).every((cell) => !cell.trim()))
        return { row, fields: fields.slice(0, width) };
      return { row, fields, raw: null, reason: `expected ${width} columns, found ${fields.length}` };
    }
    return { row, fields };
  }

  /** Where reading stopped for good: the record after the last one read. */
  private stopped(error: unknown): never {
    if (!(error instanceof CsvStructureError)) throw error;
    const { named, maxRecordChars } = this.settings;
    const start = this.line + 1;
    const fixQuoting = `Fix the quoting on line ${start} (a value with a " must be quoted, its " doubled). Rows before it are read.`;
    if (error.kind === 'unclosed-quote') {
      const more = error.lines > 0 ? ` (${error.lines} more line${error.lines === 1 ? '' : 's'})` : '';
      throw new UsageError(
        named(
          `line ${start}: a quoted field opens here and is never closed, so the rest of the file${more} would be one value`,
        ),
        fixQuoting,
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
      fixQuoting,
    );
  }
}
