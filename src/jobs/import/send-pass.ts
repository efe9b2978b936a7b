// The sending pass of an import: read the file once, check each row, write rejects, spool good rows into chunks sent
// with bounded concurrency (the next chunk is built while the ones before it are under way), journaling every chunk
// the service accepts.
import { createReadStream, rmSync, statSync, type ReadStream } from 'node:fs';
import { brokenAfterAccepted, Interrupted, OutreachError, UsageError } from '../../errors.js';
import { formatCount, formatDuration, plural } from '../../format.js';
import { openCsv, type CsvReadOptions } from '../../io/csv-reader.js';
import { createCsvFileWriter, reportHeader, type CsvFileWriter } from '../../io/csv-file-writer.js';
import type { EmailIndex } from '../../io/import/email-index.js';
import { checkRow, type Suppression } from '../../io/import/preflight.js';
import type { JobContext } from '../context.js';
import type { Journal } from '../journal.js';
import { UnitRunner } from '../runner.js';
import type { BodyFormat } from './chunk-body.js';
import { ChunkBuilder, type SpooledChunk } from './chunk-builder.js';
import { rangeOf, type AcceptedChunk, type ImportRecords } from './send-chunk.js';
import { emailHash, takeStops, type ChunkStops } from './earlier-stops.js';
import { canonicalDncKey } from '../../io/dnc-values.js';
import { visible } from '../../visible-text.js';

export interface SendPassOptions {
  path: string;
  displayName: string;
  csv: CsvReadOptions;
  emailColumn: number;
  format: BodyFormat;
  /** How many rows chunk `index` holds at most. */
  rowsOfChunk(index: number): number;
  chunkBytes: number;
  concurrency: number;
  /** Chunks accepted by an earlier run (from the journal), by index. */
  alreadyAccepted: Map<number, AcceptedChunk>;
  /** Undefined: check only, send nothing (--dry-run, the first pass of --strict). */
  send?: (chunk: SpooledChunk) => Promise<AcceptedChunk>;
  journal?: Journal<ImportRecords>;
  rejectedPath?: string;
  /** The do-not-contact lists: a row on one is not sent. */
  suppression?: Suppression;
}

export interface SendPassResult {
  total: number;
  rejected: number;
  /** Rows in chunks the service accepted, in this run or an earlier one. */
  sent: number;
  /** Of those, the rows of chunks an earlier run had accepted (a resume does not send them again). */
  sentBefore: number;
  chunks: number;
  accepted: AcceptedChunk[];
  /** Rows that reached a chunk (sent, or would be without --dry-run). */
  valid: number;
  /** Rows each do-not-contact list stopped, by the list's number. */
  stoppedBy: number[];
  /** Rows an earlier run sent in a chunk the service accepted, which a list holds now (a resume after the lists
   * changed): how many, and the first of them. */
  listedSinceSentCount: number;
  listedSinceSent: number[];
}

/** The most rows of a kind a summary names. */
const maxRowsSaid = 5;

/** The chunks of a pass: built one at a time, spooled, and sent with bounded concurrency (or, with nothing to send,
 * only counted); each one's spool goes once it is accepted, and every spool left when the pass ends. */
class Chunks {
  private building: ChunkBuilder | undefined;
  private rowsLimit = 0;
  /** The number of the next chunk: past the count of chunks formed when a resume passes over a recorded chunk none of
   * whose rows goes now. */
  private next = 0;
  /** The rows of the chunk under way that a list holds now, sent only as part of the very chunk the service accepted
   * before the lists changed (SendPassOptions.suppression's `earlier`): each row and list. */
  private listedNow: Array<[number, number]> = [];
  private readonly spooled = new Set<SpooledChunk>();
  private readonly sender: UnitRunner<SpooledChunk, AcceptedChunk> | undefined;
  /** The rows the lists stopped in each chunk's stretch of the file, journaled with it (earlier-stops.ts). */
  private readonly stopsOf = new Map<number, ChunkStops>();

  constructor(
    ctx: JobContext,
    private readonly options: SendPassOptions,
    private readonly result: SendPassResult,
    /** The rows the lists stopped up to a row (the end of a chunk's stretch), taken for its record; undefined without
     * the check. */
    private readonly stopsUpTo: (through: number) => ChunkStops | undefined,
  ) {
    const send = options.send;
    this.sender = send
      ? new UnitRunner<SpooledChunk, AcceptedChunk>(
          options.concurrency,
          send,
          {
            // Journaled as sending with its range and hash (and the rows the lists stopped) before its first byte
            // goes: a kill after the service took it finds them on --resume (a replay, not a new chunk).
            before: (chunk) => {
              const dnc = this.stopsOf.get(chunk.index);
              this.stopsOf.delete(chunk.index);
              options.journal?.sending(chunk.index, rangeOf(chunk), dnc && { dnc });
            },
            after: (spool, { chunk, ...entry }) => {
              options.journal?.accepted(chunk, entry);
              this.accept({ chunk, ...entry });
              this.discard(spool);
            },
          },
          ctx.signal,
        )
      : undefined;
  }

  /** Adds a row's JSON to the chunk under way, closing it first when the row would not fit. Synchronous for the common
   * row (an await a row costs as much as the checks); a promise only when a chunk closes and goes. */
  add(row: number, json: string, listedNow?: number): Promise<void> | undefined {
    if (this.pastRecorded(row)) return this.formAsRecorded(row).then(() => this.add(row, json, listedNow));
    const bytes = Buffer.byteLength(json);
    const under = this.building;
    if (under && (under.rows >= this.rowsLimit || under.bytesWith(bytes) > this.options.chunkBytes))
      return this.close().then(() => this.append(row, json, bytes, listedNow));
    this.append(row, json, bytes, listedNow);
    return undefined;
  }

  /** A resume after the lists changed forms each chunk its journal records over the same rows, however many of them
   * drop out now: the chunks after it, accepted ones among them, come out as they were. Whether `row` lies past the
   * chunk to be formed now. */
  private pastRecorded(row: number): boolean {
    const last = this.options.suppression?.earlier?.lastRowOf(this.next);
    return last !== undefined && row > last;
  }

  /** Closes the chunk under way at its recorded end; a recorded chunk none of whose rows goes now is passed over. */
  private async formAsRecorded(row: number): Promise<void> {
    while (this.pastRecorded(row)) {
      if (this.building) await this.close();
      else this.next++;
    }
  }

  private append(row: number, json: string, bytes: number, listedNow: number | undefined): void {
    if (listedNow !== undefined) this.listedNow.push([row, listedNow]);
    if (!this.building) {
      const { prefix, suffix } = this.options.format;
      this.building = new ChunkBuilder(this.next, prefix, suffix, Boolean(this.sender));
      this.rowsLimit = this.options.rowsOfChunk(this.next);
    }
    this.building.add(row, json, bytes);
  }

  /** Finishes the chunk under way and sends it, unless an earlier run had it accepted as it is. */
  async close(): Promise<void> {
    if (!this.building) return;
    const chunk = this.building.finish();
    const listedNow = this.listedNow;
    this.building = undefined;
    this.listedNow = [];
    this.next++;
    this.result.chunks++;
    // Its stretch of the file: as recorded, when a resume forms it again (rows that drop out now are in it still).
    const stops = this.stopsUpTo(this.options.suppression?.earlier?.lastRowOf(chunk.index) ?? chunk.lastRow);
    if (!this.sender) return;
    this.spooled.add(chunk);
    const earlier = this.options.alreadyAccepted.get(chunk.index);
    if (earlier && earlier.sha256 === chunk.sha256 && earlier.rows === chunk.rows) {
      this.accept(earlier);
      this.result.sentBefore += earlier.rows;
      for (const [row] of listedNow)
        if (this.result.listedSinceSent.length < maxRowsSaid) this.result.listedSinceSent.push(row);
      this.result.listedSinceSentCount += listedNow.length;
      this.discard(chunk);
      return;
    }
    // A chunk accepted before that no longer forms as it did is sent again: never with a row a list holds now.
    if (listedNow.length) throw listedRowSentAgain(listedNow[0]!, this.options);
    if (stops) this.stopsOf.set(chunk.index, stops);
    await this.sender.submit(chunk);
  }

  /** Waits for the chunks under way; throws the first failure. */
  drain(): Promise<void> {
    return this.sender?.drain() ?? Promise.resolve();
  }

  /** The pass stopped: the chunk being built goes; those under way finish or fail on their own. */
  abort(): void {
    this.building?.abort();
  }

  /** Every spool still on disk goes. */
  discardAll(): void {
    for (const chunk of this.spooled) this.discard(chunk);
  }

  private accept(entry: AcceptedChunk): void {
    this.result.accepted.push(entry);
    this.result.sent += entry.rows;
  }

  private discard(chunk: SpooledChunk): void {
    chunk.discard();
    this.spooled.delete(chunk);
  }
}

/** A row a list holds now, of a chunk the service accepted before the lists changed, which would be sent again: it no
 * longer forms as it did (its rows were edited since). */
function listedRowSentAgain([row, list]: [number, number], options: SendPassOptions): UsageError {
  const name = visible(options.suppression!.lists[list]!.name);
  return new UsageError(
    `row ${row} is on do-not-contact list "${name}" now, and its chunk, which the service accepted before the lists ` +
      'changed, is to be sent again (its rows differ from those sent): stopped before sending it',
    'Restore the rows of that chunk as they were sent, or start over with --restart (every row checked against the ' +
      'lists as they are now).',
  );
}

/** One progress line: rows read, sent, chunks accepted, the rate and (from the share of the file read) the time left. */
function progressReporter(ctx: JobContext, options: SendPassOptions, result: SendPassResult, input: ReadStream) {
  const size = statSync(options.path).size;
  const started = ctx.clock.now();
  return () => {
    const elapsed = ctx.clock.now() - started;
    const rate = elapsed > 0 ? (result.total * 1000) / elapsed : 0;
    const share = size ? input.bytesRead / size : 0;
    const eta = share > 0.01 && share < 1 ? ` · ETA ${formatDuration((elapsed / share) * (1 - share))}` : '';
    ctx.emit({
      type: 'progress',
      text: `${options.displayName}: ${[
        `${formatCount(result.total)} rows read`,
        `${formatCount(result.sent)} sent`,
        `${result.accepted.length}/${result.chunks} chunks accepted`,
        `${formatCount(Math.round(rate))} rows/s${eta}`,
      ].join(' · ')}`,
    });
  };
}

/** What a pass that stopped throws: the interruption, a refusal as it is, or a broken file as a job to resume. The
 * rows the service has accepted (by an earlier run too) are said with the way to continue. */
function stopped(ctx: JobContext, error: unknown, result: SendPassResult, options: SendPassOptions): unknown {
  const accepted = new Map(options.alreadyAccepted);
  for (const chunk of result.accepted) accepted.set(chunk.chunk, chunk);
  if (accepted.size) {
    const rows = [...accepted.values()].reduce((n, chunk) => n + chunk.rows, 0);
    // Without a journal (stdin), nothing keeps them from being sent again: the user has to leave them out.
    const again = options.journal ? ' (not sent again)' : '';
    ctx.doneSoFar(`Accepted so far: ${plural(rows, 'row')} in ${plural(accepted.size, 'chunk')}${again}.`);
  }
  // A refusal that came back during the grace period is shown as it is; anything else is the interruption.
  if (ctx.signal.aborted && !(error instanceof OutreachError)) return new Interrupted();
  if (error instanceof UsageError && accepted.size)
    return brokenAfterAccepted(
      error,
      options.journal
        ? 'Once the file is fixed, the command below sends only the rest.'
        : 'Once it is fixed, send only the rows after those accepted.',
    );
  return error;
}

export async function sendPass(ctx: JobContext, emails: EmailIndex, options: SendPassOptions): Promise<SendPassResult> {
  const input = createReadStream(options.path);
  const source = await openCsv(input, options.csv);
  const result: SendPassResult = {
    total: 0,
    rejected: 0,
    sent: 0,
    sentBefore: 0,
    chunks: 0,
    accepted: [],
    valid: 0,
    stoppedBy: [],
    listedSinceSentCount: 0,
    listedSinceSent: [],
  };
  // The rows the lists stopped since the last chunk, four numbers each (row, list, the email's hash, seen): journaled
  // with the next chunk.
  const stops: number[] = [];
  const lists = options.suppression?.lists;
  const chunks = new Chunks(ctx, options, result, (through) => lists && takeStops(stops, through, lists));
  const report = progressReporter(ctx, options, result, input);
  let rejects: CsvFileWriter | undefined;
  try {
    for await (const batch of source.batches) {
      for (const record of batch.rows) {
        if (ctx.signal.aborted) throw new Interrupted();
        result.total++;
        const check = checkRow(record, options.emailColumn, emails, 'record', options.suppression);
        if (!check.ok) {
          result.rejected++;
          if (check.list !== undefined) {
            result.stoppedBy[check.list] = (result.stoppedBy[check.list] ?? 0) + 1;
            if (lists) stops.push(record.row, check.list, emailHash(canonicalDncKey(check.email)), check.seen ? 1 : 0);
          }
          if (options.rejectedPath) {
            // The record whole after its row and reason, however many cells it has: nothing of it is lost.
            rejects ??= await createCsvFileWriter(options.rejectedPath, reportHeader(source.header), {
              marks: source.marks,
            });
            await rejects.writeRecord([record.row, check.reason], record, source.delimiter);
          }
          continue;
        }
        result.valid++;
        const pending = chunks.add(record.row, options.format.row(record.fields), check.listedNow);
        if (pending) await pending;
        if ((result.total & 1023) === 0) report();
      }
    }
    await chunks.close();
    report();
    await chunks.drain();
    await rejects?.commit();
    if (ctx.signal.aborted) throw new Interrupted();
    // Every row passed: no rejected file, not even one an earlier run of this input left (its rows would mislead).
    if (!rejects && options.rejectedPath) rmSync(options.rejectedPath, { force: true });
    return result;
  } catch (error) {
    chunks.abort();
    await rejects?.abort();
    // Chunks still under way finish or fail on their own; what they accepted is journaled for --resume.
    await chunks.drain().catch(() => undefined);
    throw stopped(ctx, error, result, options);
  } finally {
    chunks.discardAll();
  }
}
