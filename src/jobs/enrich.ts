// Starts enrichments for a list of people, 100 a request, one request at a time, paced by the service's rate-limit
// status: it never starts while a window has nothing left, and waits for the reset when that is within --limit-wait.
// A start spends credits, so one whose answer was lost is sent again only when the rate-limit counters show it was
// never counted; otherwise its people are written back with the reason. With wait, it follows every job to the end
// and hands each person found to `found`, in input order within a job; everyone else goes to the rejects file.
import { maxEnrichPerRequest, peopleEndpoints, type EnrichedPerson } from '../api/contract/people.js';
import { call } from '../api/call.js';
import { normaliseLinkedinUrl } from '../io/linkedin-url.js';
import type { HttpClient } from '../api/http.js';
import {
  enrichmentDone,
  enrichmentResults,
  enrichmentStatus,
  resetAtMs,
  startEnrichment,
  type EnrichStart,
  type RateLimits,
} from '../api/resources/people.js';
import { ApiError, Interrupted, NetworkError, isRefusal } from '../errors.js';
import { clockTime, formatCount, formatDuration } from '../format.js';
import { createCsvFileWriter, type CsvFileWriter } from '../io/csv-file-writer.js';
import type { InputPerson, PeopleInput } from '../io/people-input.js';
import type { JobContext } from './context.js';
import { pollUntil, WaitTimedOut } from './poller.js';

export interface EnrichOptions {
  input: PeopleInput;
  emailType: 'work_email' | 'personal_email';
  phone: boolean;
  wait: boolean;
  /** The longest wait for a rate-limit window to reset before stopping. */
  /** How long to wait for a window to reset before stopping; the job's rate-limit wait unless given. */
  limitWaitMs?: number;
  /** Where people not enriched are written (created only if there are some). */
  rejectsPath: string;
  /** The rejects' name is a default one: claimed for this run, with -2, -3 ... before this ending when taken. */
  rejectsUnique?: string;
  found(person: InputPerson, result: EnrichedPerson, requestId: string): Promise<void>;
}

export interface EnrichSummary {
  people: number;
  started: number;
  requestIds: string[];
  /** Only when waited for. */
  found: number | null;
  notEnriched: number;
  rejectsFile?: string;
  stoppedBy?: 'rate-limit';
  /** When stopped by a rate limit: which window, and when it resets (ISO 8601). */
  rateLimit?: { window: string; resetsAt: string };
  creditsCharged: number | null;
  /** What stopped the run early (Ctrl-C, a refused key, a wait that timed out), after everyone was accounted for. */
  error?: unknown;
}

function stoppedBecause(error: unknown): string {
  if (error instanceof Interrupted) return 'interrupted';
  return error instanceof Error ? error.message : String(error);
}

interface Batch {
  people: InputPerson[];
  body: EnrichStart;
}

const windowNames = { perMinute: 'per minute', perHour: 'per hour', perDay: 'per day' } as const;
type WindowName = keyof typeof windowNames;
const windows = Object.keys(windowNames) as WindowName[];

/** Lead ids where the row has one (the service's own ids), LinkedIn URLs for the rest; 100 a request. */
function planBatches(people: InputPerson[], options: Pick<EnrichOptions, 'emailType' | 'phone'>): Batch[] {
  const common: EnrichStart = { email_type: options.emailType, ...(options.phone && { reveal_phone: true }) };
  const byId = people.filter((p) => p.leadId !== undefined);
  const byUrl = people.filter((p) => p.leadId === undefined);
  const batches: Batch[] = [];
  for (let i = 0; i < byId.length; i += maxEnrichPerRequest) {
    const slice = byId.slice(i, i + maxEnrichPerRequest);
    batches.push({ people: slice, body: { ...common, lead_id: slice.map((p) => p.leadId!) } });
  }
  for (let i = 0; i < byUrl.length; i += maxEnrichPerRequest) {
    const slice = byUrl.slice(i, i + maxEnrichPerRequest);
    batches.push({ people: slice, body: { ...common, linkedin_url: slice.map((p) => p.linkedinUrl!) } });
  }
  return batches;
}

/** Whether a start between two readings was certainly not counted: some window kept its reset time and its count. */
function certainlyNotCounted(before: RateLimits, after: RateLimits): boolean {
  const comparable = windows.filter((w) => before[w].resetAt === after[w].resetAt);
  return comparable.length > 0 && comparable.every((w) => after[w].remaining >= before[w].remaining);
}

const rateLimits = async (http: HttpClient): Promise<RateLimits> =>
  (await call(http, peopleEndpoints.rateLimits)).payload;

function isLostAnswer(error: unknown): boolean {
  return (error instanceof NetworkError && error.sent) || (error instanceof ApiError && error.details.status >= 500);
}

export async function runEnrichment(job: JobContext, options: EnrichOptions): Promise<EnrichSummary> {
  const run = new Enrichment(job, await job.http(), options);
  try {
    await run.rejectUnusable();
    const started = await run.start();
    if (options.wait && started.length) await run.readResults(started);
  } catch (error) {
    run.summary.error = error;
  }
  return run.finish();
}

interface Started {
  requestId: string;
  batch: Batch;
}

/** One run: its summary, and everyone not yet written out or back. Whatever stops the run, they end up in the rejects
 * file with why. */
class Enrichment {
  readonly summary: EnrichSummary;
  /** Made by the first reject; a promise, so that rejects said at once share one file. */
  private rejects: Promise<CsvFileWriter> | undefined;
  private notEnriched = 0;
  private readonly unaccounted: Set<InputPerson>;
  private readonly startedIn = new Map<InputPerson, string>();

  constructor(
    private readonly job: JobContext,
    private readonly http: HttpClient,
    private readonly options: EnrichOptions,
  ) {
    const { input } = options;
    this.unaccounted = new Set(input.people);
    this.summary = {
      people: input.people.length + input.unusable.length,
      started: 0,
      requestIds: [],
      found: null,
      notEnriched: 0,
      creditsCharged: null,
    };
  }

  async rejectUnusable(): Promise<void> {
    for (const { person, reason } of this.options.input.unusable) await this.reject(person, reason);
  }

  /** Starts the batches one at a time, paced by the rate limits; stops at a limit that will not reset in time. */
  async start(): Promise<Started[]> {
    const { job, options, summary } = this;
    const batches = planBatches(options.input.people, options);
    const started: Started[] = [];
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b]!;
      if (job.signal.aborted) throw new Interrupted();
      const limits = await paced(job, this.http, options.limitWaitMs ?? job.rateLimitWaitMs());
      if ('stop' in limits) {
        summary.stoppedBy = 'rate-limit';
        summary.rateLimit = { window: limits.stop, resetsAt: new Date(limits.until).toISOString() };
        const reason =
          `not started: the enrichment rate limit (${limits.stop}) resets at ${clockTime(limits.until)}, ` +
          `after ${job.optionName('rateLimitWait')}; send this file again then`;
        for (const person of batches.slice(b).flatMap((x) => x.people)) await this.reject(person, reason);
        break;
      }
      const requestId = await startOnce(job, this.http, batch, limits, (person, why) => this.reject(person, why));
      if (requestId === undefined) continue;
      started.push({ requestId, batch });
      for (const person of batch.people) this.startedIn.set(person, requestId);
      summary.requestIds.push(requestId);
      summary.started += batch.people.length;
      job.emit({
        type: 'progress',
        text: `enrichment: started ${formatCount(summary.started)} of ${formatCount(options.input.people.length)} people`,
      });
    }
    return started;
  }

  /** Follows each job to its end, then hands over each person found and writes back the others. */
  async readResults(started: Started[]): Promise<void> {
    const { summary } = this;
    summary.found = 0;
    summary.creditsCharged = 0;
    const ids = started.map((s) => s.requestId);
    let processedBefore = 0;
    for (const { requestId, batch } of started) {
      const final = await this.waitFor(requestId, processedBefore, ids);
      processedBefore += batch.people.length;
      summary.creditsCharged += final.creditsCharged ?? 0;
      const results = await enrichmentResults(this.http, requestId);
      for (const [index, person] of batch.people.entries()) {
        const result = matchResult(person, results, index, batch.people.length);
        if (result?.email) {
          await this.options.found(person, result, requestId);
          this.unaccounted.delete(person);
          summary.found++;
        } else await this.reject(person, result ? 'no email found' : 'not in the results of the enrichment');
      }
    }
  }

  private waitFor(requestId: string, processedBefore: number, ids: string[]) {
    const { job, summary } = this;
    return pollUntil(
      () => enrichmentStatus(this.http, requestId),
      (status) => {
        const processed = processedBefore + (status.processed ?? 0);
        job.emit({
          type: 'progress',
          text: `enrichment: ${formatCount(processed)} of ${formatCount(summary.started)} people processed`,
        });
        return enrichmentDone(status);
      },
      {
        clock: job.clock,
        signal: job.signal,
        timeoutMs: job.waitTimeoutMs,
        what: `enrichment ${requestId}`,
        later: { kind: 'enrichment-status', requestIds: ids, wait: true },
      },
    );
  }

  /** Not waited for, nothing more to say about those started; everyone else left over is written back with why. */
  async finish(): Promise<EnrichSummary> {
    const { summary } = this;
    const why =
      summary.error instanceof WaitTimedOut
        ? `still running at ${this.job.optionName('waitTimeout')}`
        : stoppedBecause(summary.error);
    for (const person of this.unaccounted) {
      const requestId = this.startedIn.get(person);
      if (requestId && !this.options.wait) continue;
      await this.reject(
        person,
        requestId
          ? `started in request ${requestId}, results not read (${why}); send this file again later: people revealed ` +
              'before are not charged again'
          : `not started (${why})`,
      );
    }
    const rejects = await this.rejects;
    await rejects?.commit();
    summary.notEnriched = this.notEnriched;
    if (rejects) summary.rejectsFile = rejects.path;
    return summary;
  }

  private async reject(person: InputPerson, reason: string): Promise<void> {
    // Read back by `enrich contacts --file`: the people's values stay as they came.
    this.rejects ??= createCsvFileWriter(this.options.rejectsPath, [...this.options.input.header, 'Reason'], {
      unique: this.options.rejectsUnique,
    });
    await (await this.rejects).write([...person.cells, reason]);
    this.notEnriched++;
    this.unaccounted.delete(person);
  }
}

/** The rate-limit status once every window has room: waits for resets within limitWaitMs, else says stop. */
async function paced(
  job: JobContext,
  http: HttpClient,
  limitWaitMs: number,
): Promise<RateLimits | { stop: string; until: number }> {
  for (;;) {
    const limits = await rateLimits(http);
    const spent = windows.filter((w) => limits[w].remaining <= 0);
    if (!spent.length) return limits;
    const until = Math.max(...spent.map((w) => resetAtMs(limits[w].resetAt)));
    const names = spent.map((w) => windowNames[w]).join(', ');
    // A second past the reset: the service's clock and ours may differ by a little.
    const waitMs = Math.max(0, until - job.clock.now()) + 1_000;
    if (waitMs > limitWaitMs) return { stop: names, until };
    job.emit({
      type: 'note',
      text: `waiting: the enrichment rate limit (${names}) is used up; it resets at ${clockTime(until)} (in ${formatDuration(waitMs)})`,
    });
    try {
      await job.clock.sleep(waitMs, job.signal);
    } catch {
      throw new Interrupted();
    }
  }
}

/** Starts one batch; a lost answer is sent again only when the counters show the start was not counted. */
async function startOnce(
  job: JobContext,
  http: HttpClient,
  batch: Batch,
  before: RateLimits,
  reject: (person: InputPerson, reason: string) => Promise<void>,
): Promise<string | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEnrichment(http, batch.body);
    } catch (error) {
      if (isRefusal(error)) {
        for (const person of batch.people) await reject(person, `refused: ${error.message}`);
        return undefined;
      }
      if (!isLostAnswer(error)) throw error;
      const after = await rateLimits(http);
      if (attempt < 3 && certainlyNotCounted(before, after)) {
        job.emit({ type: 'info', text: 'a start got no answer and was not counted by the service: sending it again' });
        before = after;
        continue;
      }
      for (const person of batch.people)
        await reject(
          person,
          'the start may have been accepted but its answer was lost; send this file again (people revealed before ' +
            'are not charged again)',
        );
      return undefined;
    }
  }
}

/** The result for a person: by lead id or LinkedIn URL; by position when the answer names neither. */
function matchResult(
  person: InputPerson,
  results: EnrichedPerson[],
  index: number,
  batchSize: number,
): EnrichedPerson | undefined {
  const url = person.linkedinUrl && normaliseLinkedinUrl(person.linkedinUrl);
  const byKey = results.find((r) =>
    person.leadId !== undefined
      ? String(r.lead_id ?? r.id) === String(person.leadId)
      : normaliseLinkedinUrl(r.linkedin_url ?? '') === url,
  );
  if (byKey) return byKey;
  const named = results.some((r) => r.lead_id != null || r.id != null || r.linkedin_url);
  return !named && results.length === batchSize ? results[index] : undefined;
}
