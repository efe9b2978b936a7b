// The journal of a long job (prospect import, DNC add, bulk skip): one JSON line per event, appended, so a crash or
// kill -9 loses at most a torn last line. Line 1 describes the job; then, per unit of work (a chunk or a batch):
// `planned` (what it holds, when the plan is made up front), `sending` (just before its request), `accepted` (the
// service's answer), `done` (its final outcome, for jobs that wait); and a last `finished` line.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { InputFileError } from '../errors.js';

export const journalVersion = 2;

export type JobKind = 'import' | 'dnc-add' | 'bulk-skip';

export interface JournalHeader {
  journal: 'outreach';
  version: typeof journalVersion;
  job: JobKind;
  input: { path: string };
  /** Everything that shapes the units and what they mean; a resume must match it exactly. */
  settings: Record<string, unknown>;
}

/** Where a unit's rows came from, and a hash of what was sent, so a resume recognises the same unit. */
export interface UnitRange {
  firstRow: number;
  lastRow: number;
  rows: number;
  sha256: string;
}

export interface UnitState {
  planned?: Record<string, unknown>;
  sending?: UnitRange;
  accepted?: Record<string, unknown>;
  done?: Record<string, unknown>;
}

type Entry =
  | { unit: number; planned: Record<string, unknown> }
  | { unit: number; sending: UnitRange }
  | { unit: number; accepted: Record<string, unknown> }
  | { unit: number; done: Record<string, unknown> }
  | { finished: true; units: number };

export class Journal {
  readonly units = new Map<number, UnitState>();
  finished = false;

  private constructor(
    readonly path: string,
    readonly header: JournalHeader,
  ) {}

  /** Starts a new journal at `path`, replacing any earlier one. */
  static create(path: string, header: Omit<JournalHeader, 'journal' | 'version'>): Journal {
    const full: JournalHeader = { journal: 'outreach', version: journalVersion, ...header };
    writeFileSync(path, `${JSON.stringify(full)}\n`, { mode: 0o600 });
    return new Journal(path, full);
  }

  /** The journal at `path`, or undefined when there is none. Older versions are read through their migration. */
  static read(path: string, job: JobKind): Journal | undefined {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new InputFileError(path, `cannot read the journal: ${(error as Error).message}`);
    }
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
    const { header, entries } = migrate(path, first, rest);
    if (header.job !== job)
      throw new InputFileError(path, `is the journal of another job (${header.job}), not of ${job}`);
    const journal = new Journal(path, header);
    for (const entry of entries) journal.apply(entry);
    // A resumed run appends version-2 lines after the last whole one: an older or torn file is rewritten before the
    // first append. Reading alone (a scan for unfinished journals, a run that only looks) never writes.
    if (first?.version !== journalVersion || torn) journal.rewriteBeforeAppend = [header, ...entries];
    return journal;
  }

  /** What the service accepted, by unit, as the job recorded it. */
  acceptedUnits<T>(): Map<number, T> {
    const out = new Map<number, T>();
    for (const [index, unit] of this.units) if (unit.accepted) out.set(index, unit.accepted as T);
    return out;
  }

  /** Units whose request went out but whose acceptance never came (a lost answer, a kill): sending them again is a
   * replay, which the service may already have acted on. */
  unansweredUnits(): Map<number, UnitRange> {
    const out = new Map<number, UnitRange>();
    for (const [index, unit] of this.units) if (unit.sending && !unit.accepted) out.set(index, unit.sending);
    return out;
  }

  unit(index: number): UnitState {
    let state = this.units.get(index);
    if (!state) this.units.set(index, (state = {}));
    return state;
  }

  planned(unit: number, planned: Record<string, unknown>): void {
    this.append({ unit, planned });
  }

  sending(unit: number, range: UnitRange): void {
    this.append({ unit, sending: range });
  }

  accepted(unit: number, accepted: Record<string, unknown>): void {
    this.append({ unit, accepted });
  }

  done(unit: number, done: Record<string, unknown>): void {
    this.append({ unit, done });
  }

  finish(units: number): void {
    this.append({ finished: true, units });
  }

  private rewriteBeforeAppend: Array<JournalHeader | Entry> | undefined;

  private append(entry: Entry): void {
    if (this.rewriteBeforeAppend) {
      const lines = this.rewriteBeforeAppend.map((line) => `${JSON.stringify(line)}\n`).join('');
      const temp = `${this.path}.upgrade.tmp`;
      writeFileSync(temp, lines, { mode: 0o600 });
      renameSync(temp, this.path);
      this.rewriteBeforeAppend = undefined;
    }
    appendFileSync(this.path, `${JSON.stringify(entry)}\n`);
    this.apply(entry);
  }

  private apply(entry: Entry): void {
    if ('finished' in entry) {
      this.finished = true;
      return;
    }
    const { unit, ...event } = entry;
    Object.assign(this.unit(unit), event);
  }
}

export function sameSettings(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

const v1Jobs: Record<string, JobKind> = {
  'outreach-import': 'import',
  'outreach-dnc-add': 'dnc-add',
  'outreach-bulk-skip': 'bulk-skip',
};

/** Version 1 had one format per job (chunks for uploads, batches for bulk skip); version 2 is the same facts. */
function migrate(
  path: string,
  first: Record<string, unknown> | undefined,
  rest: Array<Record<string, unknown>>,
): { header: JournalHeader; entries: Entry[] } {
  if (first?.journal === 'outreach' && first.version === journalVersion) {
    return { header: first as unknown as JournalHeader, entries: rest as unknown as Entry[] };
  }
  const job = typeof first?.journal === 'string' ? v1Jobs[first.journal] : undefined;
  if (!first || !job || first.version !== 1) {
    const seen = first?.journal === 'outreach' ? `version ${String(first.version)}` : 'no journal header';
    throw new InputFileError(
      path,
      `is not a journal this version of outreach reads (${seen})`,
      'Start over with --restart (the journal is replaced), or move the file aside.',
    );
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
