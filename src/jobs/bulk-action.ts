// A bulk action over tasks (skip, snooze): planned batches sent with bounded concurrency, each followed to completion,
// the error reports merged into one failed CSV. The plan comes first in the journal (the action's settings, such as
// when a snooze ends, in its header), then each batch's acceptance and outcome, so --resume never re-sends an accepted
// batch and sends the rest as the first run would have.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpClient } from '../api/http.js';
import { call } from '../api/call.js';
import { maxBulkSkipTasks, maxBulkSnoozeTasks, snoozeUntil, tasksEndpoints } from '../api/contract/tasks.js';
import { isBulkDone } from '../api/resources/tasks.js';
import { InputFileError, Interrupted, RefusedLink, UsageError } from '../errors.js';
import { formatCount, plural } from '../format.js';
import { createCsvFileWriter } from '../io/csv-file-writer.js';
import type { JobContext } from './context.js';
import { Journal, type JobBinding, type JobKind } from './journal.js';

/** A bulk action journals each batch's ids before anything is sent, its bulk action id, and its outcome. Read back,
 * each is checked (batchesOf) before it is used. */
type BulkRecords = { planned: { ids: string[] }; accepted: { bulkActionId: string }; done: BatchOutcome };
import { pollUntil, sleepOrStop } from './poller.js';
import { withReport } from './report.js';
import { reportRows, UnreadableReport } from './report-rows.js';

/** A bulk action's report: the task (by name, else the first column) and why it failed. */
const failedTaskColumns = { taskId: /task.?id|^id$/i, reason: /reason|error|message/i };
import { UnitRunner } from './runner.js';

export interface BatchOutcome {
  completed: number;
  failed: number;
  report?: string;
}

/** What a bulk action does, and the words its messages use. */
export interface TaskAction {
  job: Extract<JobKind, `bulk-${string}`>;
  /** skip, snooze: what the action does to a task. */
  verb: string;
  /** skipped, snoozed. */
  done: string;
  batchSize: number;
  /** Recorded in the journal's header: a resume acts with them, not with what its command line says. */
  settings: Record<string, string>;
  send(http: HttpClient, ids: string[]): Promise<{ bulkActionId: string }>;
}

export const skipAction: TaskAction = {
  job: 'bulk-skip',
  verb: 'skip',
  done: 'skipped',
  batchSize: maxBulkSkipTasks,
  settings: {},
  send: (http, taskIds) => call(http, tasksEndpoints.bulkSkip, { body: { taskIds } }),
};

export function snoozeAction(snoozeUntil: string): TaskAction {
  return {
    job: 'bulk-snooze',
    verb: 'snooze',
    done: 'snoozed',
    batchSize: maxBulkSnoozeTasks,
    settings: { snoozeUntil },
    send: (http, taskIds) => call(http, tasksEndpoints.bulkSnooze, { body: { taskIds, snoozeUntil } }),
  };
}

/** The action a journal's header records (a resume acts as the first run did). */
function actionOf(journal: Journal<BulkRecords>): TaskAction {
  if (journal.header.job === 'bulk-skip') return skipAction;
  const until = (journal.header.settings as Record<string, unknown> | null)?.snoozeUntil;
  if (!snoozeUntil.safeParse(until).success)
    throw new InputFileError(journal.path, 'records no time for the snooze to end', 'Move it aside; start anew.');
  return snoozeAction(until as string);
}

/** A resumed snooze whose end has passed would snooze the rest into the past: refused (the verb says how to go on). */
export class SnoozeEnded extends UsageError {
  constructor(
    readonly journal: string,
    readonly until: string,
  ) {
    super(
      `the snooze recorded in ${journal} ended at ${until}; the tasks not yet snoozed would be snoozed into the past`,
    );
  }
}

function checkNotEnded(plan: BulkPlan, now: number): void {
  const until = plan.action.settings.snoozeUntil;
  if (until === undefined || Date.parse(until) > now) return;
  throw new SnoozeEnded(plan.journal.path, until);
}

/** A batch's outcome as a journal records it: counts that are whole numbers, a report link that is text. */
function outcomeOf(journal: Journal<BulkRecords>, done: unknown): BatchOutcome | undefined {
  if (done === undefined) return undefined;
  const { completed, failed, report } = (done ?? {}) as Record<string, unknown>;
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!count(completed) || !count(failed) || (report !== undefined && typeof report !== 'string'))
    throw new InputFileError(
      journal.path,
      'holds a batch outcome outreach did not write',
      'Move it aside; start anew.',
    );
  return done as BatchOutcome;
}

interface Batch {
  index: number;
  ids: string[];
  bulkActionId?: string;
  done?: BatchOutcome;
}

export interface BulkPlan {
  action: TaskAction;
  journal: Journal<BulkRecords>;
  failedPath: string;
  batches: Batch[];
}

export interface BulkSummary {
  total: number;
  /** Tasks the action was done to, under the action's word (`skipped`, `snoozed`). */
  [done: string]: unknown;
  failed: number;
  batches: number;
  bulkActionIds: string[];
  /** The journal only when kept: a finished action's goes unless asked for. */
  files: { journal?: string; failed?: string };
  /** Reports that could not be downloaded, each with where to fetch it. */
  unreadReports?: string[];
}

/** Where a bulk action's failed tasks go: named after its journal, never after anything written in it. */
export function failedPathOf(journalPath: string): string {
  return `${journalPath.replace(/\.journal$/, '')}.failed.csv`;
}

const header = (action: TaskAction, binding: JobBinding) => ({
  job: action.job,
  input: { path: '' },
  settings: action.settings,
  binding,
});

/** Writes the plan (every batch and its ids) before anything is sent; the journal is locked until close(). */
export function planBulk(action: TaskAction, path: string, ids: string[], binding: JobBinding, now: number): BulkPlan {
  const { journal } = Journal.start<BulkRecords>(path, header(action, binding), { resume: false, restart: true, now });
  const batches: Batch[] = [];
  for (let i = 0; i < ids.length; i += action.batchSize) {
    const batch = { index: batches.length, ids: ids.slice(i, i + action.batchSize) };
    journal.planned(batch.index, { ids: batch.ids });
    batches.push(batch);
  }
  return { action, journal, failedPath: failedPathOf(path), batches };
}

/** The plan a journal of `job` holds, for --resume: bound to this service and account, and locked until close(). */
export function resumeBulk(job: TaskAction['job'], path: string, binding: JobBinding, now: number): BulkPlan {
  const kind = job === 'bulk-skip' ? skipAction : snoozeAction('');
  const { journal } = Journal.start<BulkRecords>(path, header(kind, binding), { resume: true, restart: false, now });
  try {
    const action = actionOf(journal);
    const plan = { action, journal, failedPath: failedPathOf(path), batches: batchesOf(journal, action.batchSize) };
    if (plan.batches.some((b) => !b.bulkActionId)) checkNotEnded(plan, now);
    return plan;
  } catch (error) {
    journal.close();
    throw error;
  }
}

/** Task and bulk action ids as the service writes them: anything else in a journal is not taken for one. */
const idShape = /^[A-Za-z0-9_-]{1,128}$/;

function batchesOf(journal: Journal<BulkRecords>, batchSize: number): Batch[] {
  const checked = (value: unknown, what: string) => {
    if (typeof value !== 'string' || !idShape.test(value))
      throw new InputFileError(
        journal.path,
        `holds ${JSON.stringify(value)?.slice(0, 60)} where a ${what} belongs`,
        'Move it aside; it was not written by outreach.',
      );
    return value;
  };
  return [...journal.units].map(([index, unit]) => {
    const ids: unknown = unit.planned?.ids;
    if (!Array.isArray(ids) || ids.length > batchSize)
      checked(ids, `list of at most ${formatCount(batchSize)} task ids`);
    const bulkActionId: unknown = unit.accepted?.bulkActionId;
    return {
      index,
      ids: (ids as unknown[]).map((id) => checked(id, 'task id')),
      bulkActionId: bulkActionId === undefined ? undefined : checked(bulkActionId, 'bulk action id'),
      done: outcomeOf(journal, unit.done),
    };
  });
}

/** Whether the journal at `path` still has work: read only, not locked (a bare --resume picks the newest). */
function unfinished(job: TaskAction['job'], path: string): boolean {
  const journal = Journal.read<BulkRecords>(path, job);
  return Boolean(journal && batchesOf(journal, actionOf(journal).batchSize).some((b) => !b.done));
}

/** The newest journal of `job` in `dir` that still has work, for a bare --resume. */
export function latestUnfinishedPlan(job: TaskAction['job'], dir: string): string | undefined {
  const names = readdirSync(dir)
    .filter((n) => n.startsWith(`${job}-`) && n.endsWith('.journal'))
    .sort()
    .reverse();
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (unfinished(job, path)) return path;
    } catch {
      continue;
    }
  }
  return undefined;
}

/**
 * How long the service takes to finish a batch, narrowed down batch by batch: a check that found one still pending
 * raises the lower bound, one that found it done lowers the upper bound, and the next batch is first asked for
 * between them (at the upper bound once they are within 10 ms). A fixed backoff sleeps past the end instead: 0.6 s a
 * batch measured. Times are counted to when each check was sent, so the network's delay is part of what is learnt.
 */
const closeEnoughMs = 10;

export class CompletionEstimate {
  private lo = 0;
  private hi: number | undefined;

  /** Whether the first check goes at a time by which the last batches were all done (not a probe between bounds). */
  settled(): boolean {
    return this.hi !== undefined && this.hi - this.lo <= closeEnoughMs;
  }

  /** How long after sending a batch to ask for it first (250 ms before anything was learnt). */
  firstCheckMs(): number {
    if (this.hi === undefined) return 250;
    return this.settled() ? this.hi : Math.round((this.lo + this.hi) / 2);
  }

  /** Waits after a check that found the batch pending: short once the bounds are known, since the batch is then
   * rarely far off (the answer's own round trip is most of the wait); longer steps while nothing is known yet. */
  retries(): { initialMs: number; growth: number } {
    return this.hi === undefined ? { initialMs: 100, growth: 1.25 } : { initialMs: 10, growth: 1.5 };
  }

  /** Times since the batch was sent: of its last check that found it pending, if any, and of the one that found it
   * done. A batch done at its first check shows only that it took no longer: batches that got quicker are asked for
   * at the old time until one is done before the lower bound, which starts the bounds again. */
  learn(pendingMs: number | undefined, doneMs: number): void {
    const pending = pendingMs ?? 0;
    if (this.hi === undefined || doneMs <= this.lo) {
      this.hi = doneMs;
      this.lo = pending;
    } else if (pending >= this.hi) {
      // Late: it completed between its last pending check and doneMs. The upper bound goes just past that check, not
      // to doneMs (a retry's round trip past it), and the lower bound stays: one slow batch on a busy machine must not
      // hold back every later one, and a service that really got slower says so again at the next batch.
      this.hi = Math.min(doneMs, pending + 2 * closeEnoughMs);
    } else {
      this.hi = Math.min(this.hi, doneMs);
      this.lo = Math.max(this.lo, pending);
    }
  }
}

/** Sends a batch (unless an earlier run did) and waits until the service should have finished it. */
async function sendBatch(
  ctx: JobContext,
  http: HttpClient,
  plan: BulkPlan,
  batch: Batch,
  estimate: CompletionEstimate,
): Promise<number> {
  const sentAt = ctx.clock.now();
  if (!batch.bulkActionId) {
    batch.bulkActionId = (await plan.action.send(http, batch.ids)).bulkActionId;
    plan.journal.accepted(batch.index, { bulkActionId: batch.bulkActionId });
  }
  // Counted from when the batch was sent: the answer to the POST took part of it.
  const wait = estimate.firstCheckMs() - (ctx.clock.now() - sentAt);
  if (wait > 0) await sleepOrStop(wait, ctx);
  return sentAt;
}

/** Checks a batch until it is done and journals its outcome. */
async function confirmBatch(
  ctx: JobContext,
  http: HttpClient,
  plan: BulkPlan,
  batch: Batch,
  estimate: CompletionEstimate,
  sentAt: number,
): Promise<void> {
  let checkedAt = sentAt;
  let pendingAt: number | undefined;
  const status = await pollUntil(
    async () => {
      const at = ctx.clock.now();
      const answer = await call(http, tasksEndpoints.bulkStatus, { params: { bulkActionId: batch.bulkActionId! } });
      if (isBulkDone(answer)) checkedAt = at;
      else pendingAt = at;
      return answer;
    },
    isBulkDone,
    {
      clock: ctx.clock,
      signal: ctx.signal,
      timeoutMs: ctx.waitTimeoutMs,
      what: `bulk action ${batch.bulkActionId}`,
      later: { kind: 'bulk-resume', job: plan.action.job, journal: plan.journal.path },
      ...estimate.retries(),
      maxMs: 3000,
    },
  );
  estimate.learn(pendingAt === undefined ? undefined : pendingAt - sentAt, checkedAt - sentAt);
  const failed = status.failed ?? 0;
  batch.done = {
    completed: status.completed ?? batch.ids.length - failed,
    failed,
    report: status.csvDownloadLink ?? undefined,
  };
  plan.journal.done(batch.index, { ...batch.done });
}

/** More than this is not the report of one batch (10,000 failures of a snooze batch take
 * about 400 KB). */
const maxBatchReportBytes = 8 * 2 ** 20;

/** Merges the error reports (taskId and reason columns, by name where present) into one file. A report that cannot
 * be downloaded is named with how to fetch it later; the counts from the service's status still stand. */
async function mergeReports(ctx: JobContext, http: HttpClient, plan: BulkPlan): Promise<string[]> {
  const writer = await createCsvFileWriter(plan.failedPath, ['taskId', 'reason', 'bulkActionId'], {
    neutraliseFormulas: true,
  });
  const unread: string[] = [];
  try {
    for (const batch of plan.batches) {
      if (!batch.done?.report) continue;
      // A batch's report is small (its download is capped to match): read whole before any of it is written, so a
      // report that breaks off leaves none of its rows.
      const rows: Array<Record<'taskId' | 'reason', string | undefined>> = [];
      try {
        await withReport(
          http,
          batch.done.report,
          async (path) => {
            for await (const row of reportRows(path, failedTaskColumns, 'taskId', true)) rows.push(row);
          },
          maxBatchReportBytes,
        );
      } catch (error) {
        if (error instanceof Interrupted) throw error;
        const note =
          `bulk action ${batch.bulkActionId}: ${batch.done.failed} failed, but its report could not be ` +
          `${error instanceof UnreadableReport ? 'read' : 'downloaded'} (${(error as Error).message})` +
          (error instanceof RefusedLink ? '' : `; fetch it later from ${batch.done.report}`);
        unread.push(note);
        ctx.emit({ type: 'info', text: note });
        continue;
      }
      for (const row of rows) await writer.write([row.taskId ?? '', row.reason ?? '', batch.bulkActionId]);
    }
    await writer.commit();
    return unread;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/** Acts on every batch of the plan; once all are done, nothing is left to resume and the journal goes (unless
 * `keepJournal`). */
export async function runBulk(
  ctx: JobContext,
  plan: BulkPlan,
  concurrency: number,
  keepJournal = false,
): Promise<BulkSummary> {
  try {
    const summary = await actOnAll(ctx, plan, concurrency);
    if (!keepJournal) {
      plan.journal.remove();
      delete summary.files.journal;
    }
    return summary;
  } finally {
    plan.journal.close();
  }
}

async function actOnAll(ctx: JobContext, plan: BulkPlan, concurrency: number): Promise<BulkSummary> {
  const { action } = plan;
  ctx.emit({ type: 'journal', path: plan.journal.path });
  ctx.resumable({ kind: 'bulk-resume', job: action.job, journal: plan.journal.path });
  const http = await ctx.http();
  const total = plan.batches.reduce((n, b) => n + b.ids.length, 0);
  const tally = () => {
    const done = plan.batches.filter((b) => b.done);
    return {
      sent: plan.batches.filter((b) => b.bulkActionId).reduce((n, b) => n + b.ids.length, 0),
      acted: done.reduce((n, b) => n + b.done!.completed, 0),
      failed: done.reduce((n, b) => n + b.done!.failed, 0),
    };
  };
  const show = () => {
    const t = tally();
    const counts = [`${formatCount(t.sent)}/${formatCount(total)} sent`, `${formatCount(t.acted)} ${action.done}`];
    const text = `bulk ${action.verb}: ${[...counts, `${formatCount(t.failed)} failed`].join(' · ')}`;
    ctx.emit({ type: 'progress', text });
  };
  const estimate = new CompletionEstimate();
  // A batch holds one of `concurrency` places until the service is due to finish it; then its place goes to the next
  // batch while its status is checked (at most as many checks at a time). Holding the place until the check's answer came
  // back would add that round trip to every batch: 50 ms in 850 at 50 ms latency.
  const checks = new UnitRunner<{ batch: Batch; sentAt: number }, void>(
    concurrency,
    ({ batch, sentAt }) => confirmBatch(ctx, http, plan, batch, estimate, sentAt),
    { after: show },
  );
  const sends = new UnitRunner<Batch, void>(
    concurrency,
    async (batch) => {
      // Until the estimate has settled, the first check is a guess or a probe: the place is held until the batch is
      // done; once settled, the service has more than `concurrency` batches unfinished only while one runs late.
      const settled = estimate.settled();
      const sentAt = await sendBatch(ctx, http, plan, batch, estimate);
      if (settled) return checks.submit({ batch, sentAt });
      await confirmBatch(ctx, http, plan, batch, estimate, sentAt);
      show();
    },
    { after: () => undefined },
    ctx.signal,
  );
  let failure: { error: unknown } | undefined;
  try {
    for (const batch of plan.batches) if (!batch.done) await sends.submit(batch);
    await sends.drain();
  } catch (error) {
    failure = { error };
  }
  // No check outlives the command; the first failure is the one told.
  await checks.drain().catch((error: unknown) => (failure ??= { error }));
  if (failure) {
    const { sent, acted } = tally();
    if (sent)
      ctx.doneSoFar(
        `Accepted so far: ${formatCount(sent)} of ${plural(total, 'task')}, ${formatCount(acted)} ${action.done} ` +
          '(not sent again).',
      );
    throw failure.error;
  }
  const { acted, failed } = tally();
  const summary: BulkSummary = {
    total,
    [action.done]: acted,
    failed,
    batches: plan.batches.length,
    bulkActionIds: plan.batches.map((b) => b.bulkActionId!).filter(Boolean),
    files: { journal: plan.journal.path },
  };
  if (failed) {
    const unread = await mergeReports(ctx, http, plan);
    if (unread.length) summary.unreadReports = unread;
    summary.files.failed = plan.failedPath;
  }
  plan.journal.finish(plan.batches.length);
  return summary;
}
