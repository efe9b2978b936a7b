// `dnc add`: read values (arguments, a file, stdin) with the shared CSV reader, classify and normalise each,
// reject garbage with its row number, drop duplicates, and send chunks with bounded concurrency, journaled
// so --resume never re-sends an accepted chunk.
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { addDncItems } from '../api/resources/dnc.js';
import { Interrupted, OutreachError, UsageError } from '../errors.js';
import { formatCount } from '../format.js';
import { openCsv } from '../io/csv-reader.js';
import { createCsvFileWriter, type CsvFileWriter } from '../io/csv-file-writer.js';
import { classifyDncValue } from '../io/dnc-values.js';
import { EmailIndex } from '../io/import/email-index.js';
import type { JobContext } from './context.js';
import { Journal, jobBinding, sameSettings, type UnitRange } from './journal.js';
import { UnitRunner } from './runner.js';

export interface DncAddOptions {
  listId: string;
  /** Values given as arguments. */
  items: string[];
  /** A file or stdin, with a name for messages. */
  /** The values' file (`path` when it is one: the journal is bound to it) or stdin. */
  input?: { stream: Readable; name: string; path?: string };
  column?: string;
  /** About how many values the input holds, to size the duplicate index once. */
  expectedRows?: number;
  chunkSize: number;
  concurrency: number;
  rejectedPath: string;
  journalPath?: string;
  resume: boolean;
  restart: boolean;
}

export interface DncAddSummary {
  read: number;
  valid: number;
  duplicates: number;
  rejected: number;
  sent: number;
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

const headerNames = [
  'email',
  'emails',
  'domain',
  'domains',
  'value',
  'item',
  'website',
  'url',
  'emailaddress',
  'companydomain',
];
const key = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * Which column holds the values, and whether the first record is a header: it is when --column is given, or when
 * its first cell is no email or domain and one cell is named like email/domain/value/website.
 */
function headerOf(
  first: string[],
  column: string | undefined,
  name: string,
): { names: string[]; index: number } | undefined {
  const names = first.map((f) => f.trim());
  const named = names.findIndex((n) => headerNames.includes(key(n)));
  if (column === undefined && (classifyDncValue(names[0] ?? '').ok || named < 0)) return undefined;
  const index = column !== undefined ? names.findIndex((n) => key(n) === key(column)) : named;
  if (index < 0)
    throw new UsageError(`--column "${column}": ${name} has no such column`, `Its columns are: ${names.join(', ')}`);
  return { names, index };
}

// eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
export async function runDncAdd(ctx: JobContext, opts: DncAddOptions): Promise<DncAddSummary> {
  const http = await ctx.http();
  const settings = { listId: opts.listId, chunkSize: opts.chunkSize, column: opts.column ?? null };
  const summary: DncAddSummary = { read: 0, valid: 0, duplicates: 0, rejected: 0, sent: 0, chunks: 0, files: {} };

  let accepted = new Map<number, UnitRange>();
  let journal: Journal | undefined;
  if (opts.journalPath) {
    const header = { job: 'dnc-add' as const, input: { path: opts.input?.name ?? '' }, settings };
    ({ journal } = Journal.start(
      opts.journalPath,
      { ...header, binding: jobBinding(http, opts.input?.path) },
      {
        resume: opts.resume,
        restart: opts.restart,
        now: ctx.clock.now(),
        startOver: 'Start over with --restart: every value is sent again.',
        check(previous) {
          if (opts.resume && !sameSettings(previous!.header.settings, settings))
            throw new UsageError('--resume: the list, --chunk-size or --column differ from the run in the journal');
          if (!opts.resume && previous && !previous.finished && previous.acceptedUnits().size > 0)
            throw new UsageError(
              `an unfinished upload of this file is recorded in ${opts.journalPath}`,
              'Add --resume to send only the rest, or --restart to send everything again.',
            );
          if (opts.resume) accepted = previous!.acceptedUnits<UnitRange>();
        },
      },
    ));
    summary.files.journal = opts.journalPath;
    ctx.resumable();
  } else if (opts.resume) {
    throw new UsageError('--resume needs a file: values from arguments or stdin keep no journal');
  }

  type Chunk = { index: number; range: UnitRange; items: string[] };
  const sender = new UnitRunner<Chunk, void>(
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

  const seen = new EmailIndex(opts.expectedRows);
  let header: { names: string[]; index: number } | undefined;
  let rejects: CsvFileWriter | undefined;
  let batch: string[] = [];
  let firstRow = 0;
  let lastRow = 0;
  const flush = async () => {
    if (!batch.length) return;
    const items = batch;
    batch = [];
    const index = summary.chunks++;
    const sha256 = createHash('sha256').update(items.join('\n')).digest('hex');
    const earlier = accepted.get(index);
    if (earlier && earlier.sha256 === sha256) summary.sent += earlier.rows;
    else await sender.submit({ index, range: { firstRow, lastRow, rows: items.length, sha256 }, items });
  };
  const show = () =>
    ctx.emit({
      type: 'progress',
      text: `dnc add: ${[
        `${formatCount(summary.read)} read`,
        `${formatCount(summary.valid)} valid`,
        `${formatCount(summary.sent)} sent`,
        `${formatCount(summary.rejected)} rejected`,
      ].join(' · ')}`,
    });

  const reject = async (value: Value, reason: string) => {
    summary.rejected++;
    // The record whole after its row and reason, however many cells it has: fixed, it can be added again.
    rejects ??= await createCsvFileWriter(opts.rejectedPath, ['row', 'reason', ...(header?.names ?? ['value'])]);
    await rejects.write([value.row, reason, ...(header || value.fields.length ? value.fields : [value.raw])]);
  };
  // Synchronous for the common row; a promise only when something must be written or sent.
  const take = (value: Value): Promise<void> | undefined => {
    summary.read++;
    if ((summary.read & 4095) === 0) show();
    const item = value.reason ? { ok: false as const, reason: value.reason } : classifyDncValue(value.raw);
    if (!item.ok) return reject(value, item.reason);
    if (seen.firstRowOf(item.value, value.row) !== undefined) {
      summary.duplicates++;
      return undefined;
    }
    summary.valid++;
    if (!batch.length) firstRow = value.row;
    lastRow = value.row;
    batch.push(item.value);
    return batch.length >= opts.chunkSize ? flush() : undefined;
  };

  try {
    let n = 0;
    for (const item of opts.items) await take({ row: ++n, raw: item, fields: [item] });
    if (opts.input) {
      // The reader's rows are consumed here directly: each async layer per row costs as much as the checks.
      const name = opts.input.name === 'stdin' ? 'stdin' : `--file: ${opts.input.name}`;
      const source = await openCsv(opts.input.stream, { header: false, name });
      let first = true;
      for await (const batch of source.batches)
        for (const record of batch.rows) {
          if (ctx.signal.aborted) throw new Interrupted();
          if ('reason' in record) {
            await take({ row: record.row, raw: record.raw ?? '', fields: record.fields, reason: record.reason });
            continue;
          }
          if (first) {
            first = false;
            header = headerOf(record.fields, opts.column, opts.input.name);
            if (header) continue;
          }
          const pending = take({
            row: record.row,
            raw: record.fields[header?.index ?? 0] ?? '',
            fields: record.fields,
          });
          if (pending) await pending;
        }
    }
    await flush();
    await sender.drain();
    // An empty file or pipe is a mistake (the wrong file, a command upstream that printed nothing), not success;
    // nothing was sent, so no journal is left to resume.
    if (opts.input && summary.read === 0 && !opts.items.length) {
      if (journal) rmSync(journal.path, { force: true });
      delete summary.files.journal;
      const where = opts.input.name === 'stdin' ? 'stdin' : `--file: ${opts.input.name}`;
      throw new UsageError(`${where}: no values in it`);
    }
    journal?.finish(summary.chunks);
    await rejects?.commit();
    if (summary.rejected) summary.files.rejected = opts.rejectedPath;
    return summary;
  } catch (error) {
    await rejects?.abort();
    await sender.drain().catch(() => undefined);
    // A refusal that came back during the grace period is shown as it is; anything else is the interruption.
    throw ctx.signal.aborted && !(error instanceof OutreachError) ? new Interrupted() : error;
  } finally {
    journal?.close();
  }
}
