// `dnc sync`: another tool's suppression export against one DNC list. The diff pass reads the list (hashed, as an
// import does) and the file, and counts each row: new, already on the list, invalid (to the rejected file, with its
// row and reason), a duplicate in the file, or not an opt-out in its tool (left out, by reason). The new values go to a
// file of their own, which the apply step uploads through the journaled DNC upload (`dnc add`), so an interrupted
// sync resumes like any upload.
import { createReadStream, rmSync, statSync } from 'node:fs';
import { formatCount } from '../format.js';
import { Interrupted, JournalRefused, UsageError } from '../errors.js';
import {
  openCsv,
  type CsvBadRow,
  type CsvEncoding,
  type CsvMarks,
  type CsvReadOptions,
  type CsvRow,
} from '../io/csv-reader.js';
import { createCsvFileWriter, reportHeader, type CsvFileWriter } from '../io/csv-file-writer.js';
import { canonicalDncKey, classifyDncValue } from '../io/dnc-values.js';
import { DncSet } from '../io/import/dnc-set.js';
import { estimateRows } from '../io/import/estimate-rows.js';
import { dncSources, recogniseSource, UnknownSource, type DncSource, type DncSourceName } from '../io/dnc-sources.js';
import type { JobContext } from './context.js';
import { readDncLists } from './dnc-lists.js';
import { runDncAdd, type DncAddSummary } from './dnc-add.js';
import { bindingDifferences, jobBinding, Journal } from './journal.js';
import { diffRecord, readDiffRecord, type DncSyncDiff, type RecordedDiff } from './dnc-sync-record.js';
import { visible } from '../visible-text.js';

export interface DncSyncOptions {
  /** The export, resolved, and as the user named it. */
  path: string;
  name: string;
  listId: string;
  from?: DncSourceName;
  /** --column: the plain column to read, by name. */
  column?: string;
  encoding?: CsvEncoding;
  /** Lines before the header, when the reader should not look for a preamble itself. */
  skipLines?: number;
  /** Where the reports go: `<base>.rejected.csv`, `<base>.dnc-sync-new.csv`, `<base>.dnc-sync-journal`. */
  base: string;
  /** False for stdin: it cannot be read again, so the upload keeps no journal to resume. */
  journaled?: boolean;
  /** Where the new values go instead of `<base>.dnc-sync-new.csv` (stdin's: beside its private copy). */
  valuesPath?: string;
}

/** Where a sync's files go. A dry run's reports have names of their own: it never takes the place of a real run's. */
export const syncPaths = (base: string, dryRun = false) => ({
  rejected: `${base}${dryRun ? '.dry-run' : ''}.rejected.csv`,
  leftOut: `${base}${dryRun ? '.dry-run' : ''}.left-out.csv`,
  values: `${base}.dnc-sync-new.csv`,
  journal: `${base}.dnc-sync-journal`,
});

/** The diff of the file against the list; its new values written to their own file when `writeNew`. */
export async function diffAgainstList(ctx: JobContext, opts: DncSyncOptions, writeNew: boolean): Promise<DncSyncDiff> {
  const http = await ctx.http();
  const dnc = await readDncLists(ctx, http, { only: opts.listId });
  const list = dnc.lists[0];
  if (!list)
    throw new UsageError(
      `--list ${opts.listId}: no do-not-contact list has this id`,
      'See them with: outreach dnc lists',
    );
  const { source, records, marks, header, delimiter } = await openExport(ctx, opts);
  const paths = syncPaths(opts.base, !writeNew); // a dry run writes no new values
  const diff: DncSyncDiff = {
    file: opts.name,
    list: { ...list, values: dnc.values },
    source: { name: source.name, title: source.title },
    rows: 0,
    new: { email: 0, domain: 0 },
    coveredByDomain: 0,
    alreadyThere: { email: 0, domain: 0 },
    invalid: 0,
    duplicates: 0,
    leftOut: { rows: 0, reasons: Object.create(null) as Record<string, number> },
    files: {},
  };
  const seen = new DncSet(estimateRows(opts.path));
  const report = (path: string) => rowReport(path, header, marks, delimiter);
  const rejects = report(paths.rejected);
  // Rows that are not opt-outs in their tool are not sent: each is kept here with why, to look at or send otherwise.
  const leftOut = report(paths.leftOut);
  const fresh = writeNew ? await createCsvFileWriter(valuesOf(opts), ['value']) : undefined;
  try {
    for await (const batch of records)
      for (const record of batch.rows) {
        if (ctx.signal.aborted) throw new Interrupted();
        diff.rows++;
        if ((diff.rows & 4095) === 0) ctx.emit({ type: 'progress', text: `dnc sync: ${diff.rows} rows read` });
        const verdict = rowVerdict(source, record);
        if ('leftOut' in verdict) {
          diff.leftOut.rows++;
          countReason(diff.leftOut.reasons, verdict.leftOut);
          await leftOut.add(record, visible(verdict.leftOut));
          continue;
        }
        if ('reason' in verdict) {
          diff.invalid++;
          await rejects.add(record, verdict.reason);
          continue;
        }
        const { value, type } = verdict;
        const key = canonicalDncKey(value); // the form the list's values are held in
        if (seen.find(key) >= 0) {
          diff.duplicates++;
          continue;
        }
        seen.add(key, 0);
        if (dnc.set.find(key) >= 0) diff.alreadyThere[type]++;
        else {
          diff.new[type]++;
          // The email's domain or a parent (or a domain's parent) on the list: the import stops it already.
          if (dnc.set.listOfEmail(type === 'email' ? key : `@${key}`) >= 0) diff.coveredByDomain++;
          await fresh?.write([value]);
        }
      }
    const [rejected, left] = [await rejects.commit(), await leftOut.commit()];
    if (rejected) diff.files.rejected = rejected;
    if (left) diff.files.leftOut = left;
    await fresh?.commit();
  } catch (error) {
    await rejects.abort();
    await leftOut.abort();
    await fresh?.abort();
    throw error;
  }
  if (fresh) diff.files.new = valuesOf(opts);
  // A header alone is an export of a period with no opt-outs in it (no bounce this week): nothing to add, not an
  // error that would stop a scheduled sync.
  if (!diff.rows) ctx.emit({ type: 'warning', text: `${opts.name} has a header and no rows: no one to add` });
  return diff;
}

/** A file of rows with the reason each is there (row, reason, then the record whole), made with its first row; at
 * the end kept and named, or, with no row, removed: an earlier run's would mislead. */
function rowReport(path: string, header: string[], marks: CsvMarks | undefined, delimiter: string) {
  let writer: CsvFileWriter | undefined;
  return {
    async add(record: CsvRow | CsvBadRow, reason: string): Promise<void> {
      writer ??= await createCsvFileWriter(path, reportHeader(header), { marks });
      await writer.writeRecord([record.row, reason], record, delimiter);
    },
    /** The file's path when it holds rows. */
    async commit(): Promise<string | undefined> {
      if (!writer) {
        rmSync(path, { force: true });
        return undefined;
      }
      await writer.commit();
      return path;
    },
    abort: async () => writer?.abort(),
  };
}

/** Reasons are built from the file's cells (a status, a stage): each shown on one line, at most `maxReasons` kinds
 * (the rest counted as "other"), so a file cannot forge lines of the diff or grow it without end. */
const maxReasons = 20;
function countReason(reasons: Record<string, number>, raw: string): void {
  const shown = visible(raw).slice(0, 200);
  const reason = shown in reasons || Object.keys(reasons).length < maxReasons ? shown : 'other';
  reasons[reason] = (reasons[reason] ?? 0) + 1;
}

type Verdict = { value: string; type: 'email' | 'domain' } | { leftOut: string } | { reason: string };

function rowVerdict(source: DncSource, record: CsvRow | CsvBadRow): Verdict {
  if ('reason' in record) return { reason: record.reason };
  const read = source.read(record.fields);
  if ('leftOut' in read) return read;
  // A contacts export (LinkedIn's, Google's) lists people without an address: nothing to fix, nothing to suppress.
  if (!read.value.trim()) return { leftOut: 'no value in the row' };
  const item = classifyDncValue(read.value);
  return item.ok ? { value: item.value, type: item.type } : { reason: item.reason };
}

/** The export opened, its tool recognised from the header (a plain column may have none: then read again whole). What
 * the reader guessed (an encoding, a preamble skipped) is said. */
async function openExport(ctx: JobContext, opts: DncSyncOptions) {
  const csv: CsvReadOptions = { name: opts.name, encoding: opts.encoding, skipLines: opts.skipLines };
  let first = await openCsv(createReadStream(opts.path), csv);
  // A column of values with a delimiter in a later line ("a@x.example" lines, then "b@x.example,note") looks like a
  // preamble above a header; values above it say it is not one (unless --skip-lines said how many lines to skip).
  if (opts.skipLines === undefined && first.skipLines && (await valuesAbove(opts.path, first.skipLines, csv))) {
    first.close();
    first = await openCsv(createReadStream(opts.path), { ...csv, skipLines: 0 });
  }
  for (const note of first.notes) ctx.emit({ type: 'warning', text: note });
  let recognised: ReturnType<typeof recogniseSource>;
  try {
    recognised = recogniseSource(first.header, opts.from, (text) => classifyDncValue(text).ok, opts.column);
  } catch (error) {
    first.close();
    if (error instanceof UnknownSource)
      throw new UsageError(
        `${opts.name}: ${error.message}`,
        `--source (or --from) takes: ${dncSources.join(', ')}; --column NAME reads one column of any CSV.`,
      );
    throw error;
  }
  const { source, hasHeader, fitsTool } = recognised;
  // A tool's export read as any CSV: by its opt-out or status column when it has one, else every row an opt-out
  // (those its tool marks as subscribed too): said.
  if (fitsTool)
    ctx.emit({
      type: 'warning',
      text: source.byMarks
        ? `${opts.name} looks like ${fitsTool}; --source plain reads it as any CSV: ${source.title}, not by its tool's rules`
        : `${opts.name} looks like ${fitsTool}; --source plain reads every row as an opt-out, whatever its status there`,
    });
  const delimiter = first.delimiter;
  if (hasHeader) return { source, records: first.batches, marks: first.marks, header: first.header, delimiter };
  first.close();
  const whole = await openCsv(createReadStream(opts.path), { ...csv, header: false });
  return { source, records: whole.batches, marks: whole.marks, header: ['value'], delimiter };
}

/** Whether any of the first `lines` lines of the file is an email or a domain. */
async function valuesAbove(path: string, lines: number, csv: CsvReadOptions): Promise<boolean> {
  const head = await openCsv(createReadStream(path), { ...csv, header: false, skipLines: 0 });
  try {
    for await (const batch of head.batches)
      for (const record of batch.rows) {
        if (record.row > lines) return false;
        if (!('reason' in record) && classifyDncValue(record.fields[0] ?? '').ok) return true;
      }
    return false;
  } finally {
    head.close();
  }
}

/** The chunks an earlier, unfinished sync of this file had accepted (0 for none), or undefined when there is no such
 * sync: one that stopped before its first chunk was accepted can be resumed (it sends every value), but a new run
 * may start over it (it holds nothing to skip). */
export interface UnfinishedSync {
  accepted: number;
  chunkSize?: number;
  listId?: string;
  /** Its journal, as read: what a resume checks (exportChanged, recordedDiff) before the upload takes it up. */
  journal: Journal;
}

export function unfinishedSync(base: string): UnfinishedSync | undefined {
  const previous = Journal.read(syncPaths(base).journal, 'dnc-add');
  if (!previous || previous.finished) return undefined;
  // Read back from a file: a chunk size only when it is one (--chunk-size takes 1 to its most), a list id only when
  // it is one line of printable ASCII (it is shown, and put in a command line).
  const { chunkSize: size, listId: id } = previous.header.settings ?? {};
  const chunkSize = Number.isSafeInteger(size) && (size as number) >= 1 ? (size as number) : undefined;
  const listId = typeof id === 'string' && /^[\x21-\x7e]{1,200}$/.test(id) ? id : undefined;
  return { accepted: previous.acceptedUnits().size, chunkSize, listId, journal: previous };
}

const valuesOf = (opts: DncSyncOptions) => opts.valuesPath ?? syncPaths(opts.base).values;

export type ExportStamp = { size: number; modified: number; changed: number };

/** What identifies the export as the diff read it (taken before it reads): its size, last write and last change (a
 * copy that keeps the write time, cp -p, still changes the inode's). A resume sends the values that diff found, so an
 * export changed since (a row added, one removed) must be diffed again, not resumed. */
export function exportStamp(path: string): ExportStamp {
  const stat = statSync(path);
  return { size: stat.size, modified: stat.mtimeMs, changed: stat.ctimeMs };
}

/** Why an interrupted sync (its journal) cannot go on with this export: it changed since its diff. (A journal that
 * records no export, an older outreach's, is refused by the journal's own check: its settings differ.) */
export function exportChanged(opts: DncSyncOptions, journal: Journal): string | undefined {
  const recorded = journal.header.settings?.export as Partial<ExportStamp> | undefined;
  if (!recorded) return undefined;
  const now = exportStamp(opts.path);
  if (recorded.size === now.size && recorded.modified === now.modified && recorded.changed === now.changed)
    return undefined;
  const sizes = `${formatCount(Number(recorded.size))} bytes then, ${formatCount(now.size)} now, or a later change time`;
  return `${opts.name} has changed since the sync that stopped (${sizes}): the values left to send are those of the file as it was`;
}

/** The difference the interrupted sync kept in its journal, checked (dnc-sync-record.ts), once the journal is known
 * to be this service's, this account's and this file's: another's is refused (JournalRefused, as the upload would
 * refuse it) before anything of it is shown or asked. */
export async function recordedDiff(
  ctx: Pick<JobContext, 'http'>,
  opts: DncSyncOptions,
  journal: Journal,
): Promise<RecordedDiff | undefined> {
  const differences = bindingDifferences(journal.header.binding, jobBinding(await ctx.http(), valuesOf(opts)));
  if (differences.length) throw new JournalRefused({ kind: 'not-bound', differences }, 'dnc-add', journal.path);
  return readDiffRecord(journal.header.said);
}

/** Uploads the new values written by the diff pass (or left by an interrupted run, on --resume). `stamp`: the export
 * as the diff read it (a resume, which has no diff, checks it has not changed first: exportChanged); `diff`, kept in
 * the journal for a resume to say again. */
export type SyncUpload = DncSyncOptions & {
  keepJournal: boolean;
  chunkSize: number;
  concurrency: number;
  stamp?: ExportStamp;
  diff?: DncSyncDiff;
};

export function applySync(ctx: JobContext, opts: SyncUpload & { resume: boolean }): Promise<DncAddSummary> {
  const paths = syncPaths(opts.base);
  const values = valuesOf(opts);
  return runDncAdd(ctx, {
    listId: opts.listId,
    items: [],
    input: { stream: createReadStream(values), name: values, label: values, path: values },
    expectedRows: estimateRows(values),
    chunkSize: opts.chunkSize,
    concurrency: opts.concurrency,
    rejectedPath: `${opts.base}.dnc-sync-new.rejected.csv`,
    journalPath: opts.journaled === false ? undefined : paths.journal,
    resume: opts.resume,
    restart: !opts.resume,
    keepJournal: opts.keepJournal,
    moreSettings: { export: opts.stamp ?? exportStamp(opts.path) },
    said: opts.diff && diffRecord(opts.diff),
  });
}
