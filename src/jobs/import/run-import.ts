// An import from start to finish: map the columns, send (or check) the rows, wait for the service, write the reports.
import { createReadStream } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { importStatusMeaning, type ConflictAction } from '../../api/contract/prospects.js';
import type { HttpClient } from '../../api/http.js';
import { fieldsEndpoints } from '../../api/contract/fields.js';
import { call } from '../../api/call.js';
import { getImportStatus } from '../../api/resources/prospects.js';
import { Interrupted, RefusedLink, UsageError } from '../../errors.js';
import { formatCount, plural } from '../../format.js';
import { canonicalDncKey } from '../../io/dnc-values.js';
import { openCsv, type CsvEncoding, type CsvReadOptions } from '../../io/csv-reader.js';
import {
  AmbiguousEmailColumns,
  buildMapping,
  mappingJson,
  type ColumnMapping,
} from '../../io/import/column-mapping.js';
import { EmailIndex } from '../../io/import/email-index.js';
import { readInputText } from '../../io/input-file.js';
import { writeOutput } from '../../io/output-file.js';
import { estimateRows } from '../../io/import/estimate-rows.js';
import type { JobContext } from '../context.js';
import { Journal, jobBinding, type UnitRange } from '../journal.js';
import { sweepOrphans } from '../temp-files.js';
import { openJobInput, type InputFile } from '../input.js';
import { pollUntil } from '../poller.js';
import { withReport } from '../report.js';
import { byIdFormat, byNameFormat, type BodySettings } from './chunk-body.js';
import { readFailureReport, type RowFailure } from './failure-report.js';
import { UnreadableReport } from '../report-rows.js';
import type { NextStep } from '../../next-step.js';
import { resultsPass } from './results-pass.js';
import {
  importByIdChunk,
  importByNameChunk,
  isAcceptedChunk,
  sequenceImportChunk,
  type AcceptedChunk,
  type ImportRecords,
} from './send-chunk.js';
import { sendPass, type SendPassOptions, type SendPassResult } from './send-pass.js';
import { readDncListing, readDncLists, type DncLists } from '../dnc-lists.js';
import { earlierStops, withEarlierStops, type EarlierStops } from './earlier-stops.js';

type DncListing = Awaited<ReturnType<typeof readDncListing>>;

/** The largest chunk the import sends by default: the service takes up to 100,000 rows a request, but a chunk of
 * 40,000 leaves the service less to wait for between requests and the CLI less to hold (1M rows against the sandbox:
 * 13.7-15.1 s and 124-131 MiB at 40,000, 16.5-17.5 s and 141 MiB at 100,000). --chunk-size goes up to the limit. */
export const maxChunkRows = 40_000;
/** The service takes 90 MB a request; stay a little under it. */
export const maxChunkBytes = 89_000_000;
/** Synchronous imports answer row by row in one response: smaller chunks keep each request short. */
export const defaultSyncChunkRows = 5_000;
/** How much each ramped chunk grows on the one before (version 0.1.0 of this tool doubled them). */
const chunkGrowth = 1.5;

/** Chunk sizes that start at a twentieth of the largest and grow by half: the service works on the first rows while
 * the rest are read, instead of receiving them all in one request at the end. Each chunk is read in about the time
 * the service takes over the one before it (the CLI reads rows about 1.5 times as fast as the sandbox takes them;
 * with doubling the service waited for the CLI: 100,000 rows 1.19x the server-bound limit, against 1.06x).
 * 40,000: 2,000, 3,000, 4,500, 6,750, 10,125, 15,188, 22,781, 34,172, then 40,000. */
export function rampedChunkRows(
  largest: number,
  first = Math.max(1, Math.round(largest / 20)),
  growth = chunkGrowth,
): (index: number) => number {
  return (index) => Math.min(largest, Math.round(first * growth ** Math.min(index, 60)));
}

export interface ImportOptions {
  input: string;
  encoding?: CsvEncoding;
  delimiter?: string;
  /** Lines before the header (a preamble); found by itself when not given. */
  skipLines?: number;
  maps: string[];
  /** Asks which of several columns is the prospect's email (on a terminal); without it, the import stops. */
  pickEmailColumn?: (candidates: string[]) => Promise<string>;
  mappingFile?: string;
  saveMapping?: string;
  ignoreUnknown: boolean;
  sync: boolean;
  chunkSize?: number;
  concurrency: number;
  conflict: ConflictAction;
  step?: string;
  /** Sent to the sequence-scoped import (`sequences import`, the step required) instead of the prospects'. */
  sequenceScoped?: boolean;
  tags: string[];
  verify: boolean;
  strict: boolean;
  dryRun: boolean;
  wait: boolean;
  resume: boolean;
  restart: boolean;
  /** Keep the journal of a finished import (it goes by default: nothing is left to resume). */
  keepJournal?: boolean;
  /** Check every row against the account's do-not-contact lists (false: --no-dnc-check). */
  dncCheck: boolean;
  /** False: every list read from the service, none taken from its copy (--no-dnc-cache). */
  dncCache?: boolean;
}

/** What the do-not-contact check did: the values read, the rows it stopped (of the rejected: a script tells them from
 * rows to fix without adding up the lists), and each list with the rows it stopped. */
export type DncCheckSummary =
  | { checked: false }
  | {
      checked: true;
      values: number;
      rows: number;
      lists: Array<{ id: string; name: string; rows: number }>;
      /** After a resume once the lists changed: rows an earlier run sent that a list holds now. */
      listedSinceSent?: number;
    };

export interface ImportSummary {
  file: string;
  mode: 'async' | 'sync' | 'dry-run';
  total: number;
  sent: number;
  /** After --resume: how many of the rows sent an earlier run had sent (they were not sent again). */
  sentBefore?: number;
  /** On a dry run: the rows that passed every check, which the run would send. */
  wouldSend?: number;
  rejected: number;
  succeeded: number | null;
  /** Existing prospects the conflict action left as they were (10400, 10500): not failures. */
  unchanged: number | null;
  failed: number | null;
  /** Rows of chunks whose report could not be downloaded: accepted, outcome not known. */
  unknown?: number;
  chunks: number;
  requestIds: string[];
  dnc: DncCheckSummary;
  files: { rejected?: string; results?: string; failed?: string; journal?: string; mapping?: string };
}

export async function runImport(ctx: JobContext, opts: ImportOptions): Promise<ImportSummary> {
  const file = await openJobInput(ctx, opts.input);
  // What an import killed with -9 left beside the input: half-written reports.
  sweepOrphans(dirname(file.base));
  let closeJournal = () => {};
  try {
    const earlierJournal = journalBefore(file);
    const mapped = await mapColumns(ctx, file, opts);
    const plan = planImport(ctx, file, opts, mapped);
    const expectedRows = estimateRows(file.path);
    let lists: ListsOfResume | undefined;
    if (opts.dryRun || opts.strict) {
      await checkAgainstDnc(ctx, opts, mapped.http, plan);
      // A --strict resume checks the rows first as its sending pass will: with what the lists stopped before.
      if (!opts.dryRun) lists = listsOfResume(ctx, opts, earlierJournal, plan.suppression?.fingerprint);
      if (lists?.earlier) keepEarlierStops(ctx, plan, lists);
      if (await checkFirst(ctx, opts, plan, expectedRows)) return plan.summary;
    }
    // The lists' state goes into the journal (one request); their values are read once the journal is kept (a front
    // end following the job hears where first). --strict read them already.
    const listing = opts.dncCheck && !plan.suppression ? await readDncListing(mapped.http) : undefined;
    lists ??= listsOfResume(ctx, opts, earlierJournal, listing?.fingerprint);
    const opened = openJournal(ctx, file, opts, plan, mapped, lists.recorded, earlierJournal);
    closeJournal = () => opened.journal?.close();
    if (!opts.strict) {
      await checkAgainstDnc(ctx, opts, mapped.http, plan, listing);
      if (lists.earlier) keepEarlierStops(ctx, plan, lists);
    }
    const emails = new EmailIndex(expectedRows);
    const pass = await sendRows(ctx, opts, plan, mapped, opened, emails);
    if (pass.valid > 0 && !opts.sync && !opts.wait) return plan.summary; // the journal is what a follow-up resumes
    if (pass.valid > 0)
      await waitForResults(ctx, file, opts, plan, mapped, pass, emails).catch((error: unknown) => {
        // Stopped while waiting for the outcome: every row was sent and accepted, which is worth saying.
        if (ctx.signal.aborted)
          ctx.doneSoFar(
            `Accepted: ${plural(pass.sent, 'row')} in ${plural(pass.accepted.length, 'chunk')}, every one ` +
              `(not sent again); their outcome is not known yet.`,
          );
        throw error;
      });
    // Finished: nothing is left to resume, so the journal goes unless asked for.
    if (opened.journal && !opts.keepJournal) {
      opened.journal.remove();
      delete plan.summary.files.journal;
    }
    return plan.summary;
  } finally {
    closeJournal();
    await file.cleanup();
  }
}

/** What the first look at the file and the mapping give the passes. */
interface Mapped {
  http: HttpClient;
  /** How every pass reads the file: as the first look found it (delimiter, encoding, preamble). */
  csv: CsvReadOptions;
  delimiter: string;
  skipLines?: number;
  mapping: ColumnMapping;
}

/** A first look for the header, the delimiter, the encoding and a preamble; then the columns mapped to the fields. */
async function mapColumns(ctx: JobContext, file: InputFile, opts: ImportOptions): Promise<Mapped> {
  const csv: CsvReadOptions = {
    encoding: opts.encoding,
    delimiter: opts.delimiter,
    skipLines: opts.skipLines,
    name: opts.input === '-' ? 'stdin' : opts.input,
  };
  const peek = await openCsv(createReadStream(file.path), csv);
  peek.close();
  const { header, delimiter } = peek;
  Object.assign(csv, { delimiter, encoding: peek.encoding, skipLines: peek.skipLines, marks: peek.marks });
  for (const note of peek.notes) ctx.emit({ type: 'warning', text: note });
  const http = await ctx.http();
  const fields = (await call(http, fieldsEndpoints.list, { query: { systemFields: 'true' } })).payload;
  const mappingFile = opts.mappingFile
    ? {
        name: opts.mappingFile,
        text: await readInputText(opts.mappingFile, ctx, `${ctx.optionName('mapping')}: ${opts.mappingFile}`),
      }
    : undefined;
  const mapWith = (maps: string[]) =>
    named(opts.input, () => buildMapping(header, fields, { maps, mappingFile, ignoreUnknown: opts.ignoreUnknown }));
  let mapping: ColumnMapping;
  try {
    mapping = mapWith(opts.maps);
  } catch (error) {
    if (!(error instanceof AmbiguousEmailColumns) || !opts.pickEmailColumn) throw error;
    const chosen = await opts.pickEmailColumn(error.candidates);
    mapping = mapWith([...opts.maps, `${chosen}=Email`]);
  }
  sayMapping(ctx, mapping);
  if (opts.saveMapping) writeOutput(opts.saveMapping, ctx, mappingJson(mapping));
  return { http, csv, delimiter, skipLines: peek.skipLines, mapping };
}

/** The do-not-contact lists, read before any row is checked, for the passes to check rows against; or a note that
 * they are not (--no-dnc-check). */
async function checkAgainstDnc(
  ctx: JobContext,
  opts: ImportOptions,
  http: HttpClient,
  plan: Plan,
  listing?: DncListing,
): Promise<void> {
  if (!opts.dncCheck) {
    ctx.emit({ type: 'note', text: 'Not checking rows against the do-not-contact lists (--no-dnc-check).' });
    return;
  }
  // Said in the summary (the rows each list stopped) and its JSON (every list, the values read).
  const dnc = await readDncLists(ctx, http, { listing, cache: opts.dncCache !== false });
  plan.suppression = plan.passOptions.suppression = dnc;
  plan.summary.dnc = dncSummary(dnc, []);
}

/** A resume after the lists changed: the rows of chunks already accepted go by what the lists stopped then, every
 * other row by what they stopped then or hold now (earlier-stops.ts). */
function keepEarlierStops(ctx: JobContext, plan: Plan, { earlier, changed }: ListsOfResume): void {
  if (!plan.suppression || !earlier) return;
  plan.suppression = plan.passOptions.suppression = withEarlierStops(plan.suppression, earlier);
  plan.summary.dnc = dncSummary(plan.suppression, []);
  if (!changed) return;
  ctx.emit({
    type: 'note',
    text:
      'The do-not-contact lists changed since this import started: rows in chunks the service already accepted keep ' +
      "that run's verdicts (a row sent before its opt-out is no reject now), and every other row is left out if a " +
      'list held it then or holds it now.',
  });
}

/** The summary's account of the check: each list, and how many rows it stopped. */
function dncSummary(dnc: DncLists | undefined, stoppedBy: number[]): DncCheckSummary {
  if (!dnc) return { checked: false };
  return {
    checked: true,
    values: dnc.values,
    rows: stoppedBy.reduce((sum, rows) => sum + (rows ?? 0), 0),
    lists: dnc.lists.map((list, number) => ({ ...list, rows: stoppedBy[number] ?? 0 })),
  };
}

/** Says which columns were matched by known export headers, and which are ignored. */
function sayMapping(ctx: JobContext, mapping: ColumnMapping): void {
  if (mapping.bySynonym.length) {
    const pairs = mapping.bySynonym
      .map((c) => {
        const from = c.sources.map((s) => `"${s.header}"`).join(' or ');
        return `${from} -> ${c.field.label}${c.sources.length > 1 ? ' (per row, the first not empty)' : ''}`;
      })
      .join(', ');
    const what = mapping.exportOf ? `${mapping.exportOf} export: columns matched` : 'Columns matched';
    ctx.emit({ type: 'info', text: `${what} by known export headers: ${pairs}` });
  }
  if (mapping.ignored.length) {
    const names = mapping.ignored.map((c) => `"${c}"`).join(', ');
    ctx.emit({ type: 'info', text: `Ignoring ${mapping.ignored.length === 1 ? 'column' : 'columns'}: ${names}` });
  }
}

/** How the rows go: the body's settings and format, the chunk sizes, the summary to fill, the passes' options. */
interface Plan {
  settings: BodySettings;
  chunkRows: number;
  /** The first chunks are small (the default), so the service starts on them while the rest of the file is read. */
  ramp: boolean;
  /** How the ramp grows: recorded in the journal, whose resume sends the chunks it planned. */
  growth: number;
  summary: ImportSummary;
  rejectedPath: string;
  passOptions: Omit<SendPassOptions, 'alreadyAccepted'>;
  /** The do-not-contact lists, once read. */
  suppression?: DncLists;
}

function planImport(ctx: JobContext, file: InputFile, opts: ImportOptions, mapped: Mapped): Plan {
  const settings = {
    conflictAction: opts.conflict,
    stepId: opts.step,
    tags: opts.tags.length ? opts.tags : undefined,
    verifyProspects: opts.verify || undefined,
  };
  const chunkRows = opts.chunkSize ?? (opts.sync ? defaultSyncChunkRows : maxChunkRows);
  const ramp = opts.chunkSize === undefined && !opts.sync;
  const summary: ImportSummary = {
    file: opts.input,
    mode: opts.dryRun ? 'dry-run' : opts.sync ? 'sync' : 'async',
    total: 0,
    sent: 0,
    rejected: 0,
    succeeded: null,
    unchanged: null,
    failed: null,
    chunks: 0,
    requestIds: [],
    dnc: { checked: false },
    files: opts.saveMapping ? { mapping: resolve(ctx.cwd, opts.saveMapping) } : {},
  };
  const passOptions = {
    path: file.path,
    displayName: basename(opts.input === '-' ? 'stdin' : opts.input),
    csv: mapped.csv,
    emailColumn: mapped.mapping.emailIndex,
    format: opts.sync ? byIdFormat(mapped.mapping, settings) : byNameFormat(mapped.mapping, settings),
    rowsOfChunk: ramp ? rampedChunkRows(chunkRows) : () => chunkRows,
    chunkBytes: maxChunkBytes,
    concurrency: opts.concurrency,
  };
  return {
    settings,
    chunkRows,
    ramp,
    growth: chunkGrowth,
    summary,
    // A dry run's report has a name of its own: it never takes the place of a real run's.
    rejectedPath: `${file.base}${opts.dryRun ? '.dry-run' : ''}.rejected.csv`,
    passOptions,
  };
}

/** --dry-run and --strict: every row checked, nothing sent. True when that is all (a dry run). */
async function checkFirst(ctx: JobContext, opts: ImportOptions, plan: Plan, expectedRows: number): Promise<boolean> {
  const { summary, rejectedPath } = plan;
  const check = await sendPass(ctx, new EmailIndex(expectedRows), {
    ...plan.passOptions,
    alreadyAccepted: new Map(),
    rejectedPath,
  });
  Object.assign(summary, { total: check.total, rejected: check.rejected, chunks: check.chunks });
  if (opts.dryRun) summary.wouldSend = check.total - check.rejected;
  summary.dnc = dncSummary(plan.suppression, check.stoppedBy);
  if (check.rejected) summary.files.rejected = rejectedPath;
  if (check.total === 0) throw new UsageError(`${opts.input}: no data rows under the header`);
  // Rows on a do-not-contact list are left out, not bad: --strict refuses a file for the others only (and a dry run
  // of it says what the run would do: refuse).
  const bad = check.rejected - (summary.dnc.checked ? summary.dnc.rows : 0);
  if (opts.strict && bad) throw new StrictRefused(bad, check.total, rejectedPath, opts.dryRun);
  return opts.dryRun;
}

/** An import that sends nothing unless every row passes its checks, and some did not: the verb says which flag asked. */
export class StrictRefused extends UsageError {
  constructor(
    readonly rejected: number,
    readonly total: number,
    readonly rejectedPath: string,
    dryRun = false,
  ) {
    super(
      `${formatCount(rejected)} of ${formatCount(total)} rows failed the checks; nothing ${dryRun ? 'would be' : 'was'} sent`,
      `The rows and reasons are in ${rejectedPath}.`,
    );
  }
}

/** The journal: what an earlier run already delivered, and the record this run keeps (none for stdin). */
interface Opened {
  journal?: Journal<ImportRecords>;
  previous?: Journal<ImportRecords>;
  alreadyAccepted: Map<number, AcceptedChunk>;
}

function openJournal(
  ctx: JobContext,
  file: InputFile,
  opts: ImportOptions,
  plan: Plan,
  mapped: Mapped,
  /** The lists' state the journal records (listsOfResume). */
  dncLists: string | undefined,
  earlier: EarlierJournal,
): Opened {
  if (file.fromStdin) return { alreadyAccepted: new Map() };
  const journalPath = `${file.base}.import-journal`;
  if (opts.resume && plan.ramp) adoptRecordedRamp(earlier(), plan);
  const header = {
    job: 'import' as const,
    input: { path: file.path },
    settings: {
      ...plan.settings,
      mode: plan.summary.mode,
      // Only for the sequence-scoped import: journals of prospect imports stay as they were.
      ...(opts.sequenceScoped ? { endpoint: 'sequences' } : {}),
      chunkRows: plan.chunkRows,
      // Only when it ramps: journals of an explicit --chunk-size stay as they were; and the growth only when it is not
      // the doubling of journals written before it was recorded.
      ...(plan.ramp ? { firstChunkRows: plan.passOptions.rowsOfChunk(0) } : {}),
      ...(plan.ramp && plan.growth !== 2 ? { chunkGrowth: plan.growth } : {}),
      mapping: mapped.mapping.asJson(),
      delimiter: mapped.delimiter,
      encoding: opts.encoding ?? null,
      // Only when there is one: journals of files without a preamble stay as they were.
      ...(mapped.skipLines ? { skipLines: mapped.skipLines } : {}),
      // Skipped, or the state of the lists checked against: a resume checks rows against the same lists.
      ...(!opts.dncCheck ? { dncCheck: false } : dncLists ? { dncLists } : {}),
    },
  };
  const { journal, previous } = Journal.start<ImportRecords>(
    journalPath,
    { ...header, binding: jobBinding(mapped.http, file.path) },
    { resume: opts.resume, restart: opts.restart, now: ctx.clock.now(), sameSettings: true, refuseUnfinished: true },
  );
  const acceptedBefore = new Map<number, AcceptedChunk>();
  try {
    // Only a resume relies on what the journal read back says (a new run has replaced it).
    if (opts.resume)
      for (const [chunk, entry] of previous!.acceptedUnits(isAcceptedChunk))
        acceptedBefore.set(chunk, { chunk, ...entry });
  } catch (error) {
    journal.close();
    throw error;
  }
  if (opts.resume)
    ctx.emit({ type: 'info', text: `Resuming: ${acceptedBefore.size} chunk(s) already accepted are not sent again.` });
  plan.summary.files.journal = journalPath;
  ctx.emit({ type: 'journal', path: journalPath });
  ctx.resumable();
  return { journal, previous, alreadyAccepted: opts.resume ? acceptedBefore : new Map() };
}

/** The journal an earlier run of this import left, read (once) before it is opened and locked; undefined when there is
 * none, or none to read (said when it is opened). */
type EarlierJournal = () => Journal<ImportRecords> | undefined;

function journalBefore(file: InputFile): EarlierJournal {
  let read: { journal?: Journal<ImportRecords> } | undefined;
  return () => {
    if (read) return read.journal;
    read = {};
    if (file.fromStdin) return undefined;
    try {
      read.journal = Journal.read<ImportRecords>(`${file.base}.import-journal`, 'import');
    } catch {
      // said when the journal is opened
    }
    return read.journal;
  };
}

/** The lists' state the journal records, and, on a resume after they changed, what they stopped then. */
interface ListsOfResume {
  recorded?: string;
  earlier?: EarlierStops;
  /** The lists' state differs from the one recorded. */
  changed?: boolean;
}

/** A new run records the lists' state it read. A resume records what its journal has (none, when an older one has
 * none); when the lists changed since (a list's size or last change), the rows of chunks already accepted were
 * checked against the lists as they were, and are told so by what the journal's chunks record they stopped then. A
 * journal whose chunks record none (an older outreach wrote them) is refused. Read before the journal is opened (and
 * locked): opening it refuses it when another run holds it. */
function listsOfResume(
  ctx: JobContext,
  opts: ImportOptions,
  readEarlier: EarlierJournal,
  now: string | undefined,
): ListsOfResume {
  const previous = opts.resume && now !== undefined ? readEarlier() : undefined;
  if (!previous) return { recorded: now }; // none, or none to read: said when the journal is opened
  const recorded = previous.header.settings.dncLists;
  if (recorded === undefined) return {}; // an older journal: it records no lists
  // The verdicts its chunks record, whenever they record them: the chunks form as the journal has them even where the
  // lists changed and changed back (with the lists unchanged, they are the verdicts of now).
  const earlier = typeof recorded === 'string' ? earlierStops(previous) : undefined;
  if (earlier) return { recorded: recorded as string, earlier, changed: recorded !== now };
  if (recorded === now) return { recorded: now };
  throw new UsageError(
    '--resume: the do-not-contact lists changed since this import started (a list has another size or was updated), ' +
      'and its journal does not record what they stopped then: the rows already sent were checked against them as they were',
    sentWhole(ctx, previous) ??
      'Start over with --restart: every row is checked against the lists as they are now and sent again ' +
        '(--conflict noUpdate leaves prospects already imported as they are).',
  );
}

/** For a journal whose every chunk was sent: where the outcome is, without sending anything again. */
function sentWhole(ctx: JobContext, journal: Journal<ImportRecords>): string | undefined {
  if (!journal.finished) return undefined;
  const ids = [...journal.acceptedUnits(isAcceptedChunk).values()].map((c) => c.requestId);
  // Read back from a file: written into a command line only when each is a plain id.
  const plain = (id: unknown): id is string => typeof id === 'string' && /^[\w-]{1,100}$/.test(id);
  if (!ids.length || !ids.every(plain)) return undefined;
  const shown = ids.slice(0, 3).map((requestId) => ctx.stepWords({ kind: 'import-status', requestId, wait: true }));
  const more = ids.length > shown.length ? ` (and ${ids.length - shown.length} more ids in ${journal.path})` : '';
  return `Every row was sent before they changed: the outcome is at the service. ${shown.join(' ; ')}${more}.`;
}

/** A resume sends the chunks its first run planned: the ramp that run recorded (its first size, and its growth:
 * doubling when none is recorded, as version 0.1.0 wrote them), when it is one of the two ramps a version made. Any
 * other journal is left to the comparison of settings to refuse. */
function adoptRecordedRamp(previous: Journal<ImportRecords> | undefined, plan: Plan): void {
  const settings = previous?.header.settings;
  const first = settings?.firstChunkRows;
  const growth = settings?.chunkGrowth ?? 2;
  // Only the two ramps a version made: doubling from a tenth of the largest chunk (0.1.0), or this one.
  const made =
    (growth === 2 && first === Math.max(1, Math.round(plan.chunkRows / 10))) ||
    (growth === chunkGrowth && first === Math.max(1, Math.round(plan.chunkRows / 20)));
  if (!made) return;
  plan.growth = growth;
  plan.passOptions.rowsOfChunk = rampedChunkRows(plan.chunkRows, first, growth);
}

/** The sending pass, journaled; the summary filled from it. */
async function sendRows(
  ctx: JobContext,
  opts: ImportOptions,
  plan: Plan,
  mapped: Mapped,
  opened: Opened,
  emails: EmailIndex,
): Promise<SendPassResult> {
  const { journal, previous, alreadyAccepted } = opened;
  const { summary, rejectedPath } = plan;
  const sendChunk = opts.sync ? importByIdChunk : opts.sequenceScoped ? sequenceImportChunk : importByNameChunk;
  // Chunks an earlier run sent without hearing back: this run's send is a replay of them.
  const unanswered = opts.resume && previous ? previous.unansweredUnits() : new Map<number, UnitRange>();
  const send = async (chunk: Parameters<typeof sendChunk>[1]): Promise<AcceptedChunk> => {
    const accepted = await sendChunk(mapped.http, chunk, ctx.timeoutGiven);
    const sentBefore = unanswered.get(chunk.index)?.sha256 === accepted.sha256;
    return sentBefore ? { ...accepted, replayed: true } : accepted;
  };
  const pass = await sendPass(ctx, emails, { ...plan.passOptions, alreadyAccepted, send, journal, rejectedPath });
  if (journal) journal.finish(pass.chunks);
  Object.assign(summary, { total: pass.total, sent: pass.sent, rejected: pass.rejected, chunks: pass.chunks });
  if (opts.resume) summary.sentBefore = pass.sentBefore;
  summary.dnc = dncSummary(plan.suppression, pass.stoppedBy);
  if (pass.listedSinceSentCount && summary.dnc.checked) {
    summary.dnc.listedSinceSent = pass.listedSinceSentCount;
    const more = pass.listedSinceSentCount > pass.listedSinceSent.length ? ', ...' : '';
    ctx.emit({
      type: 'note',
      text:
        `${plural(pass.listedSinceSentCount, 'row')} sent before the lists changed ${pass.listedSinceSentCount === 1 ? 'is' : 'are'} ` +
        `on a do-not-contact list now (row ${pass.listedSinceSent.join(', ')}${more}): the service has ` +
        `${pass.listedSinceSentCount === 1 ? 'it' : 'them'}.`,
    });
  }
  summary.requestIds = pass.accepted
    .filter((a) => a.requestId)
    .sort((a, b) => a.chunk - b.chunk)
    .map((a) => a.requestId!);
  if (pass.rejected) summary.files.rejected = rejectedPath;
  if (pass.total === 0) {
    // Nothing was sent: no journal is left to resume.
    journal?.remove();
    throw new UsageError(`${opts.input}: no data rows under the header`);
  }
  return pass;
}

/** Waits for the service to finish every chunk, then writes the results and failed files; the summary's counts. */
async function waitForResults(
  ctx: JobContext,
  file: InputFile,
  opts: ImportOptions,
  plan: Plan,
  mapped: Mapped,
  pass: SendPassResult,
  emails: EmailIndex,
): Promise<void> {
  const { summary } = plan;
  const later: NextStep = file.fromStdin
    ? { kind: 'import-status', requestId: summary.requestIds[0]!, wait: true }
    : { kind: 'import-resume', input: opts.input, sequenceScoped: Boolean(opts.sequenceScoped) };
  const { failures, unknown } = opts.sync
    ? { failures: syncFailures(pass.accepted), unknown: [] }
    : await waitForChunks(ctx, mapped.http, pass.accepted, later, emails);
  const counts = await resultsPass(ctx, emails, {
    path: file.path,
    csv: mapped.csv,
    emailColumn: mapped.mapping.emailIndex,
    failures,
    replayed: pass.accepted.filter((chunk) => chunk.replayed),
    unknown,
    resultsPath: `${file.base}.results.csv`,
    failedPath: `${file.base}.failed.csv`,
    suppression: plan.suppression,
  });
  summary.succeeded = counts.succeeded;
  summary.unchanged = counts.unchanged;
  summary.failed = counts.failed;
  if (counts.unknown) summary.unknown = counts.unknown;
  summary.files.results = `${file.base}.results.csv`;
  if (counts.toFix) summary.files.failed = `${file.base}.failed.csv`;
}

/** Problems with the file's columns name the file, as every other problem with it does. */
function named<T>(input: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    // The same error, named (its kind matters: several email columns are asked about on a terminal).
    if (error instanceof UsageError && !error.message.startsWith('--'))
      error.message = `${input === '-' ? 'stdin' : input}: ${error.message}`;
    throw error;
  }
}

function syncFailures(accepted: AcceptedChunk[]): Map<string, RowFailure> {
  const failures = new Map<string, RowFailure>();
  for (const chunk of accepted)
    for (const [email, code] of chunk.failed ?? [])
      failures.set(canonicalDncKey(email), { code, reason: `${code} ${importStatusMeaning(code)}` });
  return failures;
}

/** Polls every chunk's import status until it completes, then reads its failed-rows report. A report that cannot
 * be downloaded leaves the outcome of its chunk's rows unknown (said per row) instead of failing the whole import. */
async function waitForChunks(
  ctx: JobContext,
  http: HttpClient,
  accepted: AcceptedChunk[],
  later: NextStep,
  emails: EmailIndex,
): Promise<{ failures: Map<string, RowFailure>; unknown: Array<UnitRange & { reason: string }> }> {
  const failures = new Map<string, RowFailure>();
  const unknown: Array<UnitRange & { reason: string }> = [];
  let completed = 0;
  for (const chunk of [...accepted].sort((a, b) => a.chunk - b.chunk)) {
    const status = await pollUntil(
      () => getImportStatus(http, chunk.requestId!),
      (s) => s.isCompleted,
      {
        clock: ctx.clock,
        signal: ctx.signal,
        timeoutMs: ctx.waitTimeoutMs,
        what: `import ${chunk.requestId} (rows ${chunk.firstRow}-${chunk.lastRow})`,
        later,
        initialMs: 500,
        maxMs: 5_000,
      },
    );
    completed++;
    ctx.emit({
      type: 'progress',
      text: `Chunk ${chunk.chunk + 1} (rows ${chunk.firstRow}-${chunk.lastRow}) completed [${completed}/${accepted.length}]`,
    });
    if (!status.reportUrl) continue;
    // Only the report's rows for this chunk's rows are kept: memory follows the input, whatever the report holds.
    const ofChunk = (email: string) => {
      const row = emails.lookup(email);
      return row !== undefined && row >= chunk.firstRow && row <= chunk.lastRow;
    };
    try {
      const read = await withReport(http, status.reportUrl, (path) => readFailureReport(path, failures, ofChunk));
      if (read.ignored)
        ctx.emit({
          type: 'info',
          text:
            `Rows ${chunk.firstRow}-${chunk.lastRow}: ${formatCount(read.ignored)} rows of the report are not rows ` +
            'this chunk sent; they were ignored',
        });
    } catch (error) {
      if (error instanceof Interrupted) throw error;
      // A refused link is not offered again as a place to fetch the report from.
      const reason =
        error instanceof RefusedLink
          ? `accepted; its report was not downloaded (${error.message}). ` +
            `Its link is shown by: ${ctx.stepWords({ kind: 'import-status', requestId: String(chunk.requestId), wait: false })}`
          : `accepted; its report could not be ${error instanceof UnreadableReport ? 'read' : 'downloaded'} ` +
            `(${(error as Error).message}). ` +
            `Fetch it later from ${status.reportUrl} or with: ` +
            ctx.stepWords({ kind: 'import-status', requestId: String(chunk.requestId), wait: false });
      unknown.push({ ...chunk, reason });
      ctx.emit({ type: 'info', text: `Rows ${chunk.firstRow}-${chunk.lastRow}: ${reason}` });
    }
  }
  return { failures, unknown };
}
