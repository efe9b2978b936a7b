// The bulk-skip journal: the plan (every batch and its ids) first, then a line when a batch is accepted and one
// when it is done. Appended lines, so a crash loses nothing accepted; --resume re-sends only unaccepted batches.
import { appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BatchState {
  batch: number;
  ids: string[];
  bulkActionId?: string;
  done?: { completed: number; failed: number; report?: string };
}

export interface BulkJournal {
  path: string;
  failedPath: string;
  batches: BatchState[];
}

interface Header {
  journal: 'outreach-bulk-skip';
  version: 1;
  failedPath: string;
}

export function createBulkJournal(path: string, failedPath: string, batches: string[][]): BulkJournal {
  const header: Header = { journal: 'outreach-bulk-skip', version: 1, failedPath };
  const lines = [JSON.stringify(header), ...batches.map((ids, batch) => JSON.stringify({ batch, ids }))];
  writeFileSync(path, `${lines.join('\n')}\n`, { mode: 0o600 });
  return { path, failedPath, batches: batches.map((ids, batch) => ({ batch, ids })) };
}

export function readBulkJournal(path: string): BulkJournal {
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const entries: Array<Record<string, unknown>> = [];
  for (const line of lines) {
    try {
      entries.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      break; // a torn last line from a kill
    }
  }
  const header = entries[0] as unknown as Header | undefined;
  if (header?.journal !== 'outreach-bulk-skip') throw new Error(`${path} is not a bulk-skip journal`);
  const batches: BatchState[] = [];
  for (const entry of entries.slice(1)) {
    const batch = entry.batch as number;
    if (Array.isArray(entry.ids)) batches[batch] = { batch, ids: entry.ids as string[] };
    else if (typeof entry.bulkActionId === 'string') batches[batch]!.bulkActionId = entry.bulkActionId;
    else if (entry.done) batches[batch]!.done = entry.done as BatchState['done'];
  }
  return { path, failedPath: header.failedPath, batches };
}

export function recordAccepted(journal: BulkJournal, batch: number, bulkActionId: string): void {
  journal.batches[batch]!.bulkActionId = bulkActionId;
  appendFileSync(journal.path, `${JSON.stringify({ batch, bulkActionId })}\n`);
}

export function recordDone(journal: BulkJournal, batch: number, done: NonNullable<BatchState['done']>): void {
  journal.batches[batch]!.done = done;
  appendFileSync(journal.path, `${JSON.stringify({ batch, done })}\n`);
}

/** The newest journal in `dir` that still has work, for a bare --resume. */
export function latestUnfinishedJournal(dir: string): string | undefined {
  const names = readdirSync(dir)
    .filter((n) => /^bulk-skip-.*\.journal$/.test(n))
    .sort()
    .reverse();
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (readBulkJournal(path).batches.some((b) => !b.done)) return path;
    } catch {
      continue;
    }
  }
  return undefined;
}
