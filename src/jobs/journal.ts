// The journal of a long job (prospect import, DNC add, bulk skip): one JSON line per event, appended, so a crash or
// kill -9 loses at most a torn last line. Line 1 describes the job; then, per unit of work (a chunk or a batch):
// `planned` (what it holds, when the plan is made up front), `sending` (just before its request), `accepted` (the
// service's answer), `done` (its final outcome, for jobs that wait); and a last `finished` line.
// A journal is read back to decide what to skip, so it is trusted only when it is a regular file of this user that no
// one else can write, and only for the service, account and input it was written for; it never names a place to
// write (those come from its own name). It is created exclusively and renamed into place (no write through a planted
// link), and a lock beside it keeps a second run of the same job out while one holds it.
import { createHmac } from 'node:crypto';
import { closeSync, realpathSync, rmSync, writeSync } from 'node:fs';
import { InputFileError, JournalRefused, type JournalRefusal } from '../errors.js';
import { openForAppend, readOwnFile, writeNewFile } from '../io/safe-file.js';
import { lockJob, type JobLock } from './job-lock.js';

export const journalVersion = 2;

export type JobKind = 'import' | 'dnc-add' | 'bulk-skip' | 'bulk-snooze';

export interface JournalHeader {
  journal: 'outreach';
  version: typeof journalVersion;
  job: JobKind;
  input: { path: string };
  /** Everything that shapes the units and what they mean; a resume must match it exactly. */
  settings: Record<string, unknown>;
  /** Whose work it records: a resume must be of the same service, account and input. */
  binding?: JobBinding;
  /** What the run that began the job said of its input (a sync's difference), for a resume to say again. Compared
   * with nothing; read back, the job checks it before it shows it. */
  said?: Record<string, unknown>;
}

export interface JobBinding {
  baseUrl: string;
  /** A keyed hash of the API key (HMAC keyed by the key itself): the same account, without the key. */
  account: string;
  /** The input file's real path ('' for values not read from a file). */
  input: string;
}

/** This run's binding: the service and key it sends with, and the input file it reads. */
export function jobBinding(
  http: { config: { baseUrl: string; apiKey: string; identity?: { service: string; account: string } } },
  inputPath?: string,
): JobBinding {
  const { identity } = http.config;
  const baseUrl = identity?.service ?? http.config.baseUrl.replace(/\/+$/, '');
  const account = createHmac('sha256', identity?.account ?? http.config.apiKey)
    .update(`outreach journal account ${baseUrl}`)
    .digest('hex');
  let input = '';
  if (inputPath)
    try {
      input = realpathSync(inputPath);
    } catch {
      input = inputPath;
    }
  return { baseUrl, account: account.slice(0, 32), input };
}

/** How a journal's binding differs from this run's, in words; empty when it does not. */
export function bindingDifferences(recorded: JobBinding | undefined, now: JobBinding): string[] {
  if (!recorded) return ['it records no service, account or input (an older outreach wrote it, or someone else)'];
  const out: string[] = [];
  if (recorded.baseUrl !== now.baseUrl) out.push(`service ${recorded.baseUrl} (this run: ${now.baseUrl})`);
  else if (recorded.account !== now.account) out.push('another account (this run sends another API key)');
  if (recorded.input !== now.input)
    out.push(`input ${recorded.input || '(none)'} (this run: ${now.input || '(none)'})`);
  return out;
}

/** Where a unit's rows came from, and a hash of what was sent, so a resume recognises the same unit. */
export interface UnitRange {
  firstRow: number;
  lastRow: number;
  rows: number;
  sha256: string;
}

/** What a job's journal records of a unit: its plan (jobs that plan up front), the service's acceptance, its final
 * outcome. Each job names its own; what is read back is unknown until the job has checked it. */
export interface UnitRecords {
  planned: object;
  accepted: object;
  done: object;
}

export interface UnitState<R extends UnitRecords = UnitRecords> {
  planned?: R['planned'];
  sending?: UnitRange;
  accepted?: R['accepted'];
  done?: R['done'];
}

type Entry<R extends UnitRecords = UnitRecords> =
  | { unit: number; planned: R['planned'] }
  | { unit: number; sending: UnitRange }
  | { unit: number; accepted: R['accepted'] }
  | { unit: number; done: R['done'] }
  | { finished: true; units: number };

/** A unit range read back: whole row numbers and a SHA-256 in hex, or nothing a resume relies on. */
export function isUnitRange(value: unknown): value is UnitRange {
  const range = value as Partial<UnitRange> | undefined;
  const row = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  return (
    typeof range === 'object' &&
    range !== null &&
    row(range.firstRow) &&
    row(range.lastRow) &&
    row(range.rows) &&
    typeof range.sha256 === 'string' &&
    /^[0-9a-f]{64}$/.test(range.sha256)
  );
}

/** What a run asks of the journal of its job: to resume it, to replace it unread, or a new run (refused over an
 * unfinished one). */
export interface JournalPolicy {
  resume: boolean;
  restart: boolean;
  now: number;
  /** A resume must have the settings recorded (jobs whose units depend on them: imports, uploads). */
  sameSettings?: boolean;
  /** A new run is refused where an earlier one had units accepted and did not finish. */
  refuseUnfinished?: boolean;
}

export class Journal<R extends UnitRecords = UnitRecords> {
  readonly units = new Map<number, UnitState<R>>();
  finished = false;
  /** The open file appends go to (opened without following links), and the lock this run holds. */
  private fd: number | undefined;
  private lock: JobLock | undefined;

  private constructor(
    readonly path: string,
    readonly header: JournalHeader,
  ) {}

  /** Starts a new journal at `path`, replacing any earlier one (a new file renamed into place). */
  static create<R extends UnitRecords = UnitRecords>(
    path: string,
    header: Omit<JournalHeader, 'journal' | 'version'>,
  ): Journal<R> {
    const full: JournalHeader = { journal: 'outreach', version: journalVersion, ...header };
    const journal = new Journal<R>(path, full);
    journal.fd = writeNewFile(path, `${JSON.stringify(full)}\n`);
    return journal;
  }

  /** The journal at `path`, or undefined when there is none. Older versions are read through their migration. */
  static read<R extends UnitRecords = UnitRecords>(path: string, job: JobKind): Journal<R> | undefined {
    let text: string | undefined;
    try {
      text = readOwnFile(path, 'journal');
    } catch (error) {
      if (error instanceof InputFileError)
        throw new JournalRefused({ kind: 'unusable', problem: error.problem, untrusted: true }, job, path);
      throw new InputFileError(path, `cannot read the journal: ${(error as Error).message}`);
    }
    if (text === undefined) return undefined;
    const lines: unknown[] = [];
    let torn = !text.endsWith('\n');
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        lines.push(JSON.parse(line));
      } catch {
        torn = true;
        break; // a torn last line from a kill: everything before it stands
      }
    }
    const [first, ...rest] = lines as Array<Record<string, unknown>>;
    const { header, entries } = migrate(path, job, first, rest);
    if (header.job !== job)
      throw new InputFileError(path, `is the journal of another job (${header.job}), not of ${job}`);
    const journal = new Journal<R>(path, header);
    for (const entry of entries) journal.apply(entry as Entry<R>);
    // A resumed run appends version-2 lines after the last whole one: an older or torn file is rewritten before the
    // first append. Reading alone (a scan for unfinished journals, a run that only looks) never writes.
    if (first?.version !== journalVersion || torn) journal.rewriteBeforeAppend = [header, ...entries];
    return journal;
  }

  /** What the service accepted, by unit, as the job recorded it; each record read back passes `check` (a record that
   * does not is not the job's: the journal is refused). */
  acceptedUnits(check: (record: unknown) => boolean = () => true): Map<number, R['accepted']> {
    const out = new Map<number, R['accepted']>();
    for (const [index, unit] of this.units) {
      if (!unit.accepted) continue;
      if (!check(unit.accepted)) throw this.notWritten('accepted', index);
      out.set(index, unit.accepted);
    }
    return out;
  }

  /** Units whose request went out but whose acceptance never came (a lost answer, a kill): sending them again is a
   * replay, which the service may already have acted on. */
  unansweredUnits(): Map<number, UnitRange> {
    const out = new Map<number, UnitRange>();
    for (const [index, unit] of this.units) {
      if (!unit.sending || unit.accepted) continue;
      if (!isUnitRange(unit.sending)) throw this.notWritten('sending', index);
      out.set(index, unit.sending);
    }
    return out;
  }

  /** A record outreach would not have written: the journal is not trusted. */
  notWritten(kind: string, unit: number): InputFileError {
    return new InputFileError(
      this.path,
      `holds a record of unit ${unit} (${kind}) that outreach did not write`,
      'Move it aside; it was not written by outreach.',
    );
  }

  unit(index: number): UnitState<R> {
    let state = this.units.get(index);
    if (!state) this.units.set(index, (state = {}));
    return state;
  }

  planned(unit: number, planned: R['planned']): void {
    this.append({ unit, planned });
  }

  /** `detail`: more of the unit written with its range (an import's do-not-contact stops), for a resume to read back;
   * not kept in memory by the run that writes it. */
  sending(unit: number, range: UnitRange, detail?: Record<string, unknown>): void {
    this.append({ unit, sending: detail ? { ...range, ...detail } : range }, { unit, sending: range });
  }

  accepted(unit: number, accepted: R['accepted']): void {
    this.append({ unit, accepted });
  }

  done(unit: number, done: R['done']): void {
    this.append({ unit, done });
  }

  finish(units: number): void {
    this.append({ finished: true, units });
  }

  private rewriteBeforeAppend: Array<JournalHeader | Entry<R>> | undefined;

  /** Closes the file and gives up the lock. */
  /** Deletes the journal of a job that left nothing to resume, then lets it go: deleted while still locked, so no
   * other run takes it up in between. */
  remove(): void {
    rmSync(this.path, { force: true });
    this.close();
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    this.lock?.release();
    this.lock = undefined;
  }

  /** Writes `entry`; what the journal then holds in memory is `kept`. */
  private append(entry: Entry<R>, kept = entry): void {
    if (this.rewriteBeforeAppend) {
      const lines = this.rewriteBeforeAppend.map((line) => `${JSON.stringify(line)}\n`).join('');
      this.fd = writeNewFile(this.path, lines);
      this.rewriteBeforeAppend = undefined;
    }
    this.fd ??= openForAppend(this.path);
    writeSync(this.fd, `${JSON.stringify(entry)}\n`);
    this.apply(kept);
  }

  /**
   * The one policy of every job's journal. Takes the job's lock, reads the journal at `path` (unless `restart`, which
   * replaces it unread: even one this version cannot read must not stop a fresh start), refuses what `policy` rules
   * out (JournalRefused), and returns the journal this run writes: the one read when resuming, or a new one. The lock
   * is released by close(), or here when anything is refused.
   */
  static start<R extends UnitRecords = UnitRecords>(
    path: string,
    header: Omit<JournalHeader, 'journal' | 'version'> & { binding: JobBinding },
    policy: JournalPolicy,
  ): { journal: Journal<R>; previous?: Journal<R> } {
    const lock = lockJob(path, policy.now);
    try {
      const previous = policy.restart ? undefined : Journal.read<R>(path, header.job);
      const refusal = refusalOf(previous, header, policy);
      if (refusal) throw new JournalRefused(refusal, header.job, path);
      const journal = policy.resume ? previous! : Journal.create<R>(path, header);
      journal.lock = lock;
      return { journal, previous };
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private apply(entry: Entry<R>): void {
    if ('finished' in entry) {
      this.finished = true;
      return;
    }
    const { unit, ...event } = entry;
    Object.assign(this.unit(unit), event);
  }
}

/** The settings whose values differ between two runs (a setting only one has counts). */
function settingsDiffering(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys.filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key]));
}

function refusalOf(
  previous: Journal<UnitRecords> | undefined,
  header: Pick<JournalHeader, 'settings'> & { binding: JobBinding },
  policy: JournalPolicy,
): JournalRefusal | undefined {
  if (policy.resume) {
    if (!previous) return { kind: 'missing' };
    const differences = bindingDifferences(previous.header.binding, header.binding);
    if (differences.length) return { kind: 'not-bound', differences };
    const keys = policy.sameSettings ? settingsDiffering(previous.header.settings, header.settings) : [];
    if (keys.length) return { kind: 'settings-differ', keys };
    return undefined;
  }
  // (A journal with nothing accepted holds nothing to skip: a new run just starts over.)
  const accepted = previous?.acceptedUnits().size ?? 0;
  if (policy.refuseUnfinished && previous && !previous.finished && accepted > 0)
    return { kind: 'unfinished', accepted };
  return undefined;
}

const v1Jobs: Record<string, JobKind> = {
  'outreach-import': 'import',
  'outreach-dnc-add': 'dnc-add',
  'outreach-bulk-skip': 'bulk-skip',
};

/** Version 1 had one format per job (chunks for uploads, batches for bulk skip); version 2 is the same facts. A
 * journal of neither is refused to the job `reading` it. */
function migrate(
  path: string,
  reading: JobKind,
  first: Record<string, unknown> | undefined,
  rest: Array<Record<string, unknown>>,
): { header: JournalHeader; entries: Entry[] } {
  if (first?.journal === 'outreach' && first.version === journalVersion) {
    return { header: first as unknown as JournalHeader, entries: rest as unknown as Entry[] };
  }
  const job = typeof first?.journal === 'string' ? v1Jobs[first.journal] : undefined;
  if (!first || !job || first.version !== 1) {
    const seen = first?.journal === 'outreach' ? `version ${String(first.version)}` : 'no journal header';
    const problem = `is not a journal this version of outreach reads (${seen})`;
    throw new JournalRefused({ kind: 'unusable', problem, untrusted: false }, reading, path);
  }
  const header: JournalHeader = {
    journal: 'outreach',
    version: journalVersion,
    job,
    input: (first.input as { path: string }) ?? { path: '' },
    settings: job === 'bulk-skip' ? { failedPath: first.failedPath } : (first.settings as Record<string, unknown>),
  };
  const entries = rest.map((line): Entry => {
    if (line.finished) return { finished: true, units: Number(line.chunks ?? 0) };
    if (job !== 'bulk-skip') {
      const { chunk, ...accepted } = line;
      return { unit: chunk as number, accepted };
    }
    const unit = line.batch as number;
    if (Array.isArray(line.ids)) return { unit, planned: { ids: line.ids } };
    if (line.bulkActionId) return { unit, accepted: { bulkActionId: line.bulkActionId } };
    return { unit, done: line.done as Record<string, unknown> };
  });
  return { header, entries };
}
