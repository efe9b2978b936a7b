// Long jobs as handles: a tool that starts an upload or a bulk action returns at once with a job id; the run goes on
// in this server, and job_status, job_results, job_stop and job_resume follow it. What a job keeps is bounded (its last
// progress line, a few notes, its answer) and so is how many are kept. A job keeps its journal like any run of its
// command, so after the server's restart job_resume (the tool and its arguments) continues it with --resume.
import { randomBytes } from 'node:crypto';
import type { JobEvent } from '../../jobs/events.js';
import type { Answer } from './answer.js';

export interface JobView {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** What it does, as the command line a person would type. */
  command: string;
  /** Where it keeps its journal, once it does (an upload, a bulk action). */
  journal?: string;
  state: 'running' | 'done' | 'failed';
  startedAt: string;
  endedAt?: string;
  /** Its last progress line: rows read, sent, chunks accepted, rate-limit waits. */
  phase?: string;
  /** How many progress reports it has made: what a progress notification counts. */
  reports: number;
  notes: string[];
}

interface Job extends JobView {
  /** What makes two jobs the same work (the tool and its input): one runs at a time. */
  key: string;
  answer?: Answer;
  done: Promise<void>;
  listeners: Set<() => void>;
  /** Stops this job alone, as Ctrl-C would (job_stop). */
  stopping: AbortController;
}

/** Jobs kept for job_status (the oldest finished ones go first), jobs running at once, and notes kept a job. */
const maxJobs = 100;
const maxRunning = 4;
const maxNotes = 20;

export class Jobs {
  private readonly jobs = new Map<string, Job>();
  private readonly stopping = new AbortController();

  constructor(private readonly now: () => number) {}

  /** Starts `run`, which hears the job's events and is stopped (as by Ctrl-C) when the server stops. */
  start(
    tool: string,
    key: string,
    command: string,
    args: Record<string, unknown>,
    run: (signal: AbortSignal, observe: (event: JobEvent) => void) => Promise<Answer>,
  ): JobView | { refused: string } {
    const running = [...this.jobs.values()].filter((job) => job.state === 'running');
    const same = running.find((job) => job.key === key);
    if (same) return { refused: `job ${same.id} is doing this already: follow it with job_status` };
    if (running.length >= maxRunning)
      return { refused: `${maxRunning} jobs are running: wait for one to end (job_status with waitSeconds)` };
    this.forgetOld();
    const job: Job = {
      id: `jb${randomBytes(6).toString('hex')}`,
      tool,
      key,
      arguments: args,
      command,
      state: 'running',
      startedAt: new Date(this.now()).toISOString(),
      reports: 0,
      notes: [],
      listeners: new Set(),
      done: Promise.resolve(),
      stopping: new AbortController(),
    };
    const heard = (event: JobEvent) => {
      if (event.type === 'journal') job.journal = event.path;
      else if (event.type === 'progress') {
        job.phase = event.text;
        job.reports++;
      } else if (job.notes.length < maxNotes) job.notes.push(`${event.type}: ${event.text}`);
      for (const listener of job.listeners) listener();
    };
    job.done = run(AbortSignal.any([this.stopping.signal, job.stopping.signal]), heard).then(
      (answer) => this.end(job, answer),
      (error: unknown) => this.end(job, undefined, error),
    );
    this.jobs.set(job.id, job);
    return view(job);
  }

  private end(job: Job, answer: Answer | undefined, error?: unknown): void {
    job.answer = answer;
    job.state = answer && !answer.isError ? 'done' : 'failed';
    if (error) job.notes.push(`error: ${(error as Error).message}`);
    job.endedAt = new Date(this.now()).toISOString();
    for (const listener of job.listeners) listener();
  }

  get(id: string): (JobView & { answer?: Answer }) | undefined {
    const job = this.jobs.get(id);
    return job && { ...view(job), answer: job.answer };
  }

  /** Waits until the job has set itself up: its journal is kept, it reports progress, or it has ended (then with its
   * answer: a short job, a rehearsal, answers at once); at most `ms`, or until `signal` aborts: a job that says
   * nothing (a service that does not answer) is answered as running, to follow with job_status. */
  async settled(id: string, ms: number, signal: AbortSignal): Promise<(JobView & { answer?: Answer }) | undefined> {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    if (job.state === 'running' && job.journal === undefined && job.reports === 0)
      await until(job, ms, signal, (wake) => wake());
    return this.get(id);
  }

  /** Waits until the job ends, `signal` aborts or `ms` pass, calling `onReport` at each of its progress reports. */
  async follow(id: string, ms: number, signal: AbortSignal, onReport: (job: JobView) => void): Promise<void> {
    const job = this.jobs.get(id);
    if (!job || job.state !== 'running' || ms <= 0) return;
    await until(job, ms, signal, (wake) => {
      onReport(view(job));
      if (job.state !== 'running') wake();
    });
  }

  /** Stops a running job as Ctrl-C would (it keeps its journal; requests already sent get their grace period),
   * waiting for it to end as follow() does. */
  async stopOne(id: string, ms: number, signal: AbortSignal): Promise<void> {
    this.jobs.get(id)?.stopping.abort();
    await this.follow(id, ms, signal, () => undefined);
  }

  /** Stops every job as Ctrl-C would (each keeps its journal) and waits for them to end. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.jobs.values()].map((job) => job.done));
  }

  private forgetOld(): void {
    for (const [id, job] of this.jobs) {
      if (this.jobs.size < maxJobs) return;
      if (job.state !== 'running') this.jobs.delete(id);
    }
  }
}

/** Waits until `heard` (told at each of the job's events: a report, its journal, its end) wakes it, `ms` pass or
 * `signal` aborts; nothing is left listening after. */
async function until(job: Job, ms: number, signal: AbortSignal, heard: (wake: () => void) => void): Promise<void> {
  let wake = () => {};
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const listener = () => heard(wake);
  const timer = setTimeout(wake, ms);
  job.listeners.add(listener);
  signal.addEventListener('abort', wake);
  await woken;
  clearTimeout(timer);
  job.listeners.delete(listener);
  signal.removeEventListener('abort', wake);
}

function view(job: Job): JobView {
  const { id, tool, arguments: args, command, journal, state, startedAt, endedAt, phase, reports, notes } = job;
  return { id, tool, arguments: args, command, journal, state, startedAt, endedAt, phase, reports, notes: [...notes] };
}
