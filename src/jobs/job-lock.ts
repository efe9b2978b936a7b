// One run of a job at a time: a lock file beside the journal names the process that holds it. A lock whose process
// has ended (a kill -9, a crash) is taken over; one held by a running process stops the second run, naming it. The
// lock is written whole under a temporary name and linked into place, so no run ever reads it half-written.
import { closeSync, linkSync, rmSync, writeSync } from 'node:fs';
import { pid } from 'node:process';
import { processAlive } from '../process-alive.js';
import { UsageError } from '../errors.js';
import { openExclusive, readOwnFile, tempPathFor } from '../io/safe-file.js';

export interface JobLock {
  release(): void;
}

const lockHint = 'Remove it if no outreach run holds it.';

/** Who holds the lock at `path`; undefined when it is gone. A lock that is not ours to trust, or that does not say
 * who holds it, is refused: it is never taken over on a guess. */
function holderOf(path: string, journalPath: string): { pid: number; since: string } | undefined {
  const text = readOwnFile(path, 'lock', lockHint);
  if (text === undefined) return undefined;
  let holder: { pid?: unknown; since?: unknown } | undefined;
  try {
    holder = JSON.parse(text);
  } catch {
    holder = undefined;
  }
  if (typeof holder?.pid !== 'number' || !Number.isSafeInteger(holder.pid) || holder.pid <= 0)
    throw new UsageError(`${journalPath} is locked by ${path}, which does not say which process holds it`, lockHint);
  return { pid: holder.pid, since: String(holder.since) };
}

/** Creates the lock, whole, if no lock is there; false when one is. */
function tryLock(path: string, now: number): boolean {
  const temp = tempPathFor(path);
  const fd = openExclusive(temp);
  try {
    writeSync(fd, `${JSON.stringify({ pid, since: new Date(now).toISOString() })}\n`);
    closeSync(fd);
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
}

export function lockJob(journalPath: string, now: number): JobLock {
  const path = `${journalPath}.lock`;
  const lock = { release: () => rmSync(path, { force: true }) };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryLock(path, now)) return lock;
    const holder = holderOf(path, journalPath);
    if (holder && holder.pid !== pid && processAlive(holder.pid))
      throw new UsageError(
        `${journalPath} is in use by process ${holder.pid} (since ${holder.since})`,
        'Wait for that run to end, or stop it; a lock whose process has ended is taken over.',
      );
    rmSync(path, { force: true }); // its process has ended
  }
  throw new UsageError(`${journalPath}: another run took its lock at the same moment`, 'Try again.');
}
