// The sending pass of an import: read the file once, check each row, write rejects, spool good rows into chunks sent
// with bounded concurrency (the next chunk is built while the ones before it are under way), journaling every chunk
// the service accepts.
import { createReadStream, statSync } from 'node:fs';
import { Interrupted, OutreachError, UsageError } from '../../errors.js';
import { formatCount, formatDuration } from '../../format.js';
import { openCsv, type CsvReadOptions } from '../../io/csv-reader.js';
import { createCsvFileWriter, type CsvFileWriter } from '../../io/csv-file-writer.js';
import type { EmailIndex } from '../../io/import/email-index.js';
import { checkRow } from '../../io/import/preflight.js';
import type { JobContext } from '../context.js';
import type { Journal } from '../journal.js';
import { UnitRunner } from '../runner.js';
import type { BodyFormat } from './chunk-body.js';
import { ChunkBuilder, type SpooledChunk } from './chunk-builder.js';
import { rangeOf, type AcceptedChunk } from './send-chunk.js';

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
  journal?: Journal;
  rejectedPath?: string;
}

export interface SendPassResult {
  total: number;
  rejected: number;
  /** Rows in chunks the service accepted, in this run or an earlier one. */
  sent: number;
  chunks: number;
  accepted: AcceptedChunk[];
  /** Rows that reached a chunk (sent, or would be without --dry-run). */
  valid: number;
}

export async function sendPass(ctx: JobContext, emails: EmailIndex, options: SendPassOptions): Promise<SendPassResult> {
  const size = statSync(options.path).size;
  const input = createReadStream(options.path);
  const source = await openCsv(input, options.csv);
  const started = ctx.clock.now();
  const result: SendPassResult = { total: 0, rejected: 0, sent: 0, chunks: 0, accepted: [], valid: 0 };
  let rejects: CsvFileWriter | undefined;
  let building: ChunkBuilder | undefined;

  const accept = (entry: AcceptedChunk) => {
    result.accepted.push(entry);
    result.sent += entry.rows;
  };
  const send = options.send;
  /** Chunks spooled and not yet done with: their files go when they are accepted, or when the pass ends. */
  const spooled = new Set<SpooledChunk>();
  const discard = (chunk: SpooledChunk) => {
    chunk.discard();
    spooled.delete(chunk);
  };
  const sender = send
    ? new UnitRunner<SpooledChunk, AcceptedChunk>(
        options.concurrency,
        send,
        {
          // Journaled as sending with its range and hash before its first byte goes: a kill after the service took
          // it finds them on --resume (a replay, not a new chunk).
          before: (chunk) => options.journal?.sending(chunk.index, rangeOf(chunk)),
          after: (spool, { chunk, ...entry }) => {
            options.journal?.accepted(chunk, entry);
            accept({ chunk, ...entry });
            discard(spool);
          },
        },
        ctx.signal,
      )
    : undefined;
  let chunkRows = 0;

  const report = () => {
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

  const closeChunk = async () => {
    if (!building) return;
    const chunk = building.finish();
    building = undefined;
    result.chunks++;
    if (!sender) return;
    spooled.add(chunk);
    const earlier = options.alreadyAccepted.get(chunk.index);
    if (earlier && earlier.sha256 === chunk.sha256 && earlier.rows === chunk.rows) {
      accept(earlier);
      discard(chunk);
    } else await sender.submit(chunk);
  };

  const openChunk = () => {
    const { prefix, suffix } = options.format;
    building = new ChunkBuilder(result.chunks, prefix, suffix, Boolean(sender));
    chunkRows = options.rowsOfChunk(result.chunks);
  };

  try {
    for await (const batch of source.batches) {
      for (const record of batch.rows) {
        if (ctx.signal.aborted) throw new Interrupted();
        result.total++;
        const check = checkRow(record, options.emailColumn, emails, 'record');
        if (!check.ok) {
          result.rejected++;
          if (options.rejectedPath) {
            // The record whole after its row and reason, however many cells it has: nothing of it is lost.
            rejects ??= await createCsvFileWriter(options.rejectedPath, ['row', 'reason', ...source.header]);
            await rejects.writeRecord([record.row, check.reason], record, source.delimiter);
          }
          continue;
        }
        result.valid++;
        const json = options.format.row((record as { fields: string[] }).fields);
        const bytes = Buffer.byteLength(json);
        if (building && (building.rows >= chunkRows || building.bytesWith(bytes) > options.chunkBytes))
          await closeChunk();
        if (!building) openChunk();
        building!.add(record.row, json, bytes);
        if ((result.total & 1023) === 0) report();
      }
    }
    await closeChunk();
    report();
    await sender?.drain();
    await rejects?.commit();
    if (ctx.signal.aborted) throw new Interrupted();
    return result;
  } catch (error) {
    building?.abort();
    await rejects?.abort();
    // Chunks still under way finish or fail on their own; what they accepted is journaled for --resume.
    await sender?.drain().catch(() => undefined);
    // A refusal that came back during the grace period is shown as it is; anything else is the interruption.
    if (ctx.signal.aborted && !(error instanceof OutreachError)) throw new Interrupted();
    // The file broke (a quote never closed) after chunks were accepted: not "nothing was sent" (exit 2) but a job
    // to continue once the file is fixed (exit 1, with the --resume command).
    if (error instanceof UsageError && result.accepted.length) {
      const rows = result.accepted.reduce((n, chunk) => n + chunk.rows, 0);
      throw new OutreachError(
        error.message,
        `${error.hint ? `${error.hint} ` : ''}${formatCount(rows)} rows in ${result.accepted.length} chunk(s) ` +
          'before it were accepted; once the file is fixed, the command below sends only the rest.',
      );
    }
    throw error;
  } finally {
    for (const chunk of spooled) chunk.discard();
  }
}
