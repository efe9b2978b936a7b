// One run of a job at a time: a lock file beside the journal names the process that holds it. A lock whose process
// has ended (a kill -9, a crash) is taken over; one held by a running process stops the second run, naming it.
import { closeSync, rmSync, writeSync } from 'node:fs';
import { kill, pid } from 'node:process';
import { UsageError } from '../errors.js';
import { checkOwnFile, openExclusive, readOwnFile } from '../io/safe-file.js';

export interface JobLock {
  release(): void;
}

function running(other: number): boolean {
  try {
    kill(other, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const lockHint = 'Remove it if no outreach run holds it.';

function holderOf(path: string): { pid: number; since: string } | undefined {
  try {
    const holder = JSON.parse(readOwnFile(path, 'lock', lockHint) ?? '');
    return Number.isSafeInteger(holder?.pid) && holder.pid > 0
      ? { pid: holder.pid, since: String(holder.since) }
      : undefined;
  } catch {
    return undefined;
  }
}

export function lockJob(journalPath: string, now: number): JobLock {
  const path = `${journalPath}.lock`;
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openExclusive(path);
      writeSync(fd, `${JSON.stringify({ pid, since: new Date(now).toISOString() })}\n`);
      closeSync(fd);
      return { release: () => rmSync(path, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    checkOwnFile(path, 'lock', lockHint);
    const holder = holderOf(path);
    if (holder && holder.pid !== pid && running(holder.pid))
      throw new UsageError(
        `${journalPath} is in use by process ${holder.pid} (since ${holder.since})`,
        'Wait for that run to end, or stop it; a lock whose process has ended is taken over.',
      );
    rmSync(path, { force: true });
  }
}
