// Skips planned batches of at most 100 tasks with bounded concurrency, follows each to completion, and merges
// the error reports into one failed CSV. Every step is journaled, so --resume never re-sends an accepted batch.
import { parse } from 'csv-parse/sync';
import type { CommandContext } from '../../cli/command-context.js';
import { createProgress, formatCount } from '../../cli/progress.js';
import type { HttpClient } from '../../api/http.js';
import { bulkSkip, bulkStatus, isBulkDone } from '../../api/resources/tasks.js';
import { pollUntil } from '../../api/poll.js';
import { ChunkSender } from '../import/chunk-sender.js';
import { downloadText } from '../import/failure-report.js';
import { createCsvFileWriter } from '../csv-file-writer.js';
import { recordAccepted, recordDone, type BatchState, type BulkJournal } from './bulk-journal.js';

export interface BulkSkipSummary {
  total: number;
  skipped: number;
  failed: number;
  batches: number;
  bulkActionIds: string[];
  files: { journal: string; failed?: string };
}

async function runBatch(ctx: CommandContext, http: HttpClient, journal: BulkJournal, batch: BatchState): Promise<void> {
  if (!batch.bulkActionId) recordAccepted(journal, batch.batch, (await bulkSkip(http, batch.ids)).bulkActionId);
  const status = await pollUntil(() => bulkStatus(http, batch.bulkActionId!), isBulkDone, {
    clock: ctx.clock,
    signal: ctx.signal,
    initialMs: 250,
    maxMs: 3000,
  });
  const failed = status.failed ?? 0;
  recordDone(journal, batch.batch, {
    completed: status.completed ?? batch.ids.length - failed,
    failed,
    report: status.csvDownloadLink ?? undefined,
  });
}

/** Merges the error reports (taskId and reason columns, by name where present) into one file. */
async function mergeReports(ctx: CommandContext, http: HttpClient, journal: BulkJournal): Promise<void> {
  const writer = await createCsvFileWriter(journal.failedPath, ['taskId', 'reason', 'bulkActionId']);
  try {
    for (const batch of journal.batches) {
      if (!batch.done?.report) continue;
      const rows = parse(await downloadText(http, batch.done.report, ctx.signal), {
        bom: true,
        skip_empty_lines: true,
        relax_column_count: true,
      }) as string[][];
      const [header = [], ...records] = rows;
      const idAt = Math.max(
        0,
        header.findIndex((h) => /task.?id|^id$/i.test(h)),
      );
      const reasonAt = header.findIndex((h) => /reason|error|message/i.test(h));
      for (const record of records)
        await writer.write([record[idAt], reasonAt >= 0 ? record[reasonAt] : '', batch.bulkActionId]);
    }
    await writer.commit();
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

export async function runBulkSkip(
  ctx: CommandContext,
  journal: BulkJournal,
  concurrency: number,
): Promise<BulkSkipSummary> {
  const http = await ctx.http();
  const progress = createProgress(ctx);
  const total = journal.batches.reduce((n, b) => n + b.ids.length, 0);
  const tally = () => {
    const done = journal.batches.filter((b) => b.done);
    return {
      sent: journal.batches.filter((b) => b.bulkActionId).reduce((n, b) => n + b.ids.length, 0),
      skipped: done.reduce((n, b) => n + b.done!.completed, 0),
      failed: done.reduce((n, b) => n + b.done!.failed, 0),
    };
  };
  const show = () => {
    const t = tally();
    progress.update(
      `bulk skip: ${formatCount(t.sent)}/${formatCount(total)} sent · ${formatCount(t.skipped)} skipped · ${formatCount(t.failed)} failed`,
      true,
    );
  };
  const sender = new ChunkSender<BatchState, void>(concurrency, (batch) => runBatch(ctx, http, journal, batch), show);
  try {
    for (const batch of journal.batches) if (!batch.done) await sender.submit(batch);
    await sender.drain();
  } finally {
    progress.done();
  }
  const { skipped, failed } = tally();
  const summary: BulkSkipSummary = {
    total,
    skipped,
    failed,
    batches: journal.batches.length,
    bulkActionIds: journal.batches.map((b) => b.bulkActionId!).filter(Boolean),
    files: { journal: journal.path },
  };
  if (failed) {
    await mergeReports(ctx, http, journal);
    summary.files.failed = journal.failedPath;
  }
  return summary;
}
