// `dnc add`: read values (arguments, a file, stdin) with the shared CSV reader, classify and normalise each,
// reject garbage with its row number, drop duplicates, and send chunks with bounded concurrency, journaled
// so --resume never re-sends an accepted chunk.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { HttpClient } from '../api/http.js';
import { addDncItems } from '../api/resources/dnc.js';
import { brokenAfterAccepted, Interrupted, OutreachError, UsageError } from '../errors.js';
import { formatCount, plural } from '../format.js';
import { openCsv, type CsvEncoding, type CsvMarks } from '../io/csv-reader.js';
import { createCsvFileWriter, reportHeader, type CsvFileWriter } from '../io/csv-file-writer.js';
import { classifyDncValue } from '../io/dnc-values.js';
import { columnKey, valueColumn } from '../io/dnc-column.js';
import { EmailIndex } from '../io/import/email-index.js';
import type { JobContext } from './context.js';
import { isUnitRange, Journal, jobBinding, type UnitRange } from './journal.js';

/** A DNC upload journals each chunk's range as the service accepted it. */
type DncRecords = { planned: never; accepted: UnitRange; done: never };
import { UnitRunner } from './runner.js';

export interface DncAddOptions {
  listId: string;
  /** Values given as arguments. */
  items: string[];
  /** A file or stdin, with a name for messages. */
  /** The values' file (`path` when it is one: the journal is bound to it) or stdin. */
  /** `name`: the file as given (its journal records it); `label`: how messages name it (`--file: x.csv`, `stdin`). */
  input?: { stream: Readable; name: string; label: string; path?: string };
  column?: string;
  encoding?: CsvEncoding;
  /** About how many values the input holds, to size the duplicate index once. */
  expectedRows?: number;
  chunkSize: number;
  concurrency: number;
  rejectedPath: string;
  journalPath?: string;
  resume: boolean;
  restart: boolean;
  /** Keep the journal once every value is sent (it goes by default: nothing is left to resume). */
  keepJournal?: boolean;
  /** More that a resume must find as it was, recorded with the settings (dnc sync: the export the values came from). */
  moreSettings?: Record<string, unknown>;
  /** What the run says of its input, kept in the journal for a resume to say again (dnc sync: the difference). */
  said?: Record<string, unknown>;
}

export interface DncAddSummary {
  read: number;
  valid: number;
  duplicates: number;
  rejected: number;
  /** Values accepted in all: by this run, and by the run a --resume continues. */
  sent: number;
  /** Of those, the ones the earlier run had sent (a --resume's). */
  sentBefore: number;
  chunks: number;
  files: { rejected?: string; journal?: string };
}

interface Value {
  row: number;
  raw: string;
  fields: string[];
  /** Set when the CSV record itself could not be read. */
  reason?: string;
}

/**
 * Which column holds the values, and whether the first record is a header: it is when --column is given, or when
 * its first cell is no email or domain and a column is named as dnc-column.ts reads one.
 */
function headerOf(
  first: string[],
  column: string | undefined,
  name: string,
): { names: string[]; index: number } | undefined {
  const names = first.map((f) => f.trim());
  const named = valueColumn(names.map(columnKey));
  if (column === undefined && (classifyDncValue(names[0] ?? '').ok || named < 0)) return undefined;
  const index = column !== undefined ? names.findIndex((n) => columnKey(n) === columnKey(column)) : named;
  if (index < 0) throw new NoSuchColumn(column!, name, names);
  return { names, index };
}

/** The column asked for is not in the input's header: the verb says which flag asked. */
export class NoSuchColumn extends UsageError {
  constructor(
    readonly column: string,
    readonly input: string,
    readonly columns: string[],
  ) {
    super(`"${column}": ${input} has no such column`, `Its columns are: ${columns.join(', ')}`);
  }
}

export async function runDncAdd(ctx: JobContext, opts: DncAddOptions): Promise<DncAddSummary> {
  const http = await ctx.http();
  const summary: DncAddSummary = {
    read: 0,
    valid: 0,
    duplicates: 0,
    rejected: 0,
    sent: 0,
    sentBefore: 0,
    chunks: 0,
    files: {},
  };
  const { journal, accepted } = openJournal(ctx, http, opts, summary);
  const upload = new Upload(ctx, http, opts, summary, journal, accepted);
  try {
    let n = 0;
    for (const item of opts.items) await upload.take({ row: ++n, raw: item, fields: [item] });
    if (opts.input) await readValues(ctx, opts, opts.input, upload);
    await upload.finish();
    // An empty file or pipe is a mistake (the wrong file, a command upstream that printed nothing), not success;
    // nothing was sent, so no journal is left to resume.
    if (opts.input && summary.read === 0 && !opts.items.length) {
      journal?.remove();
      delete summary.files.journal;
      throw new UsageError(`${opts.input.label}: no values in it`);
    }
    journal?.finish(summary.chunks);
    await upload.commit();
    if (journal && !opts.keepJournal) {
      journal.remove();
      delete summary.files.journal;
    }
    return summary;
  } catch (error) {
    await upload.abort();
    // By this run, and by an earlier one (whether or not this run had read as far as its chunks).
    const earlier = [...accepted.values()].reduce((n, range) => n + range.rows, 0);
    const sent = earlier + summary.sent - summary.sentBefore;
    if (sent) ctx.doneSoFar(`Accepted so far: ${plural(sent, 'value')}${journal ? ' (not sent again)' : ''}.`);
    // A refusal that came back during the grace period is shown as it is; anything else is the interruption.
    if (ctx.signal.aborted && !(error instanceof OutreachError)) throw new Interrupted();
    if (error instanceof UsageError && sent && journal)
      throw brokenAfterAccepted(error, 'Once the file is fixed, the command below sends only the rest.');
    throw error;
  } finally {
    journal?.close();
  }
}

/** The journal of a file's upload (none for arguments or stdin), and the chunks an earlier run had accepted. */
function openJournal(
  ctx: JobContext,
  http: HttpClient,
  opts: DncAddOptions,
  summary: DncAddSummary,
): { journal?: Journal<DncRecords>; accepted: Map<number, UnitRange> } {
  let accepted = new Map<number, UnitRange>();
  if (!opts.journalPath) return { accepted };
  const settings = {
    listId: opts.listId,
    chunkSize: opts.chunkSize,
    column: opts.column ?? null,
    ...opts.moreSettings,
  };
  const header = {
    job: 'dnc-add' as const,
    input: { path: opts.input?.name ?? '' },
    settings,
    ...(opts.said ? { said: opts.said } : {}),
  };
  const { journal, previous } = Journal.start<DncRecords>(
    opts.journalPath,
    { ...header, binding: jobBinding(http, opts.input?.path) },
    { resume: opts.resume, restart: opts.restart, now: ctx.clock.now(), sameSettings: true, refuseUnfinished: true },
  );
  if (opts.resume) accepted = previous!.acceptedUnits(isUnitRange);
  summary.files.journal = opts.journalPath;
  ctx.emit({ type: 'journal', path: opts.journalPath });
  ctx.resumable();
  return { journal, accepted };
}

/** Reads the values of a file or stdin: its first record may be a header naming the column (headerOf). The reader's
 * rows are consumed here directly: each async layer per row costs as much as the checks. */
async function readValues(
  ctx: JobContext,
  opts: DncAddOptions,
  input: NonNullable<DncAddOptions['input']>,
  upload: Upload,
): Promise<void> {
  const source = await openCsv(input.stream, { header: false, name: input.label, encoding: opts.encoding });
  upload.marks = source.marks;
  let first = true;
  for await (const batch of source.batches)
    for (const record of batch.rows) {
      if (ctx.signal.aborted) throw new Interrupted();
      if ('reason' in record) {
        await upload.take({ row: record.row, raw: record.raw ?? '', fields: record.fields, reason: record.reason });
        continue;
      }
      if (first) {
        first = false;
        upload.header = headerOf(record.fields, opts.column, input.name);
        if (upload.header) continue;
      }
      const pending = upload.take({
        row: record.row,
        raw: record.fields[upload.header?.index ?? 0] ?? '',
        fields: record.fields,
      });
      if (pending) await pending;
    }
}

type Chunk = { index: number; range: UnitRange; items: string[] };

/** The values on their way: checked, de-duplicated, rejected with their row, or batched into chunks sent with bounded
 * concurrency and journaled. */
class Upload {
  /** The header record, when the input has one. */
  header: { names: string[]; index: number } | undefined;
  /** The input's byte-order mark and line ending, which the file of its rejected rows keeps. */
  marks: CsvMarks | undefined;
  private readonly seen: EmailIndex;
  private readonly sender: UnitRunner<Chunk, void>;
  private rejects: CsvFileWriter | undefined;
  private batch: string[] = [];
  private firstRow = 0;
  private lastRow = 0;

  constructor(
    private readonly ctx: JobContext,
    http: HttpClient,
    private readonly opts: DncAddOptions,
    private readonly summary: DncAddSummary,
    journal: Journal<DncRecords> | undefined,
    private readonly accepted: Map<number, UnitRange>,
  ) {
    this.seen = new EmailIndex(opts.expectedRows);
    this.sender = new UnitRunner<Chunk, void>(
      opts.concurrency,
      async (chunk) => {
        await addDncItems(http, opts.listId, chunk.items);
      },
      {
        before: ({ index, range }) => journal?.sending(index, range),
        after: ({ index, range }) => {
          journal?.accepted(index, { ...range });
          summary.sent += range.rows;
        },
      },
      ctx.signal,
    );
  }

  /** Takes one value. Synchronous for the common row; a promise only when something must be written or sent. */
  take(value: Value): Promise<void> | undefined {
    const summary = this.summary;
    summary.read++;
    if ((summary.read & 4095) === 0) this.show();
    const item = value.reason ? { ok: false as const, reason: value.reason } : classifyDncValue(value.raw);
    if (!item.ok) return this.reject(value, item.reason);
    if (this.seen.firstRowOf(item.value, value.row) !== undefined) {
      summary.duplicates++;
      return undefined;
    }
    summary.valid++;
    if (!this.batch.length) this.firstRow = value.row;
    this.lastRow = value.row;
    this.batch.push(item.value);
    return this.batch.length >= this.opts.chunkSize ? this.flush() : undefined;
  }

  /** Sends the last chunk and waits for every chunk under way. */
  async finish(): Promise<void> {
    await this.flush();
    await this.sender.drain();
  }

  /** The rejected file is complete: it takes its name. */
  async commit(): Promise<void> {
    await this.rejects?.commit();
    if (this.summary.rejected) this.summary.files.rejected = this.opts.rejectedPath;
  }

  /** The upload stopped: no rejected file is left half-written; chunks under way finish or fail on their own. */
  async abort(): Promise<void> {
    await this.rejects?.abort();
    await this.sender.drain().catch(() => undefined);
  }

  private async flush(): Promise<void> {
    if (!this.batch.length) return;
    const items = this.batch;
    this.batch = [];
    const index = this.summary.chunks++;
    const sha256 = createHash('sha256').update(items.join('\n')).digest('hex');
    const earlier = this.accepted.get(index);
    if (earlier && earlier.sha256 === sha256) {
      this.summary.sent += earlier.rows;
      this.summary.sentBefore += earlier.rows;
    } else
      await this.sender.submit({
        index,
        range: { firstRow: this.firstRow, lastRow: this.lastRow, rows: items.length, sha256 },
        items,
      });
  }

  private async reject(value: Value, reason: string): Promise<void> {
    this.summary.rejected++;
    // The record whole after its row and reason, however many cells it has: fixed, it can be added again.
    const columns = reportHeader(this.header?.names ?? ['value']);
    this.rejects ??= await createCsvFileWriter(this.opts.rejectedPath, columns, { marks: this.marks });
    await this.rejects.write([value.row, reason, ...(this.header || value.fields.length ? value.fields : [value.raw])]);
  }

  private show(): void {
    const { read, valid, sent, rejected } = this.summary;
    const parts = [`${formatCount(read)} read`, `${formatCount(valid)} valid`, `${formatCount(sent)} sent`];
    this.ctx.emit({
      type: 'progress',
      text: `dnc add: ${[...parts, `${formatCount(rejected)} rejected`].join(' · ')}`,
    });
  }
}
