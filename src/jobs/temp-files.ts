// Temporary files that hold prospect data (chunk spools, a copy of stdin, half-written reports) carry the pid of the
// process that made them. Every exit path of that process removes them; after a kill -9 nothing can, so the next
// import sweeps the ones whose process is gone.
import { randomBytes } from 'node:crypto';
// The pid is the identity of this process on the machine, which temporary file names carry (not configuration).
import { kill, pid } from 'node:process';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** `outreach-<kind>-<pid>-<random><suffix>`: a name sweepOrphans can tie to its process. */
export function tempName(kind: string, suffix = ''): string {
  return `outreach-${kind}-${pid}-${randomBytes(6).toString('hex')}${suffix}`;
}

function alive(other: number): boolean {
  try {
    kill(other, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, it is someone else's
  }
}

/** Removes, from `dir`, temporary files of outreach processes that no longer run. Returns how many. */
export function sweepOrphans(dir: string = tmpdir()): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    // Exactly the names this tool makes: outreach-chunk-<pid>-<hex>-<n>.json, outreach-report-<pid>-<hex>.csv,
    // outreach-stdin-<pid>-<hex> (a folder), .<report name>.outreach-tmp-<pid>-<hex>.
    const match =
      /^outreach-(chunk|report|stdin)-(\d+)-[0-9a-f]{12}(-\d+\.json|\.csv)?$/.exec(name) ??
      /^\..+\.outreach-(tmp)-(\d+)-[0-9a-f]{12}$/.exec(name);
    const owner = Number(match?.[2]);
    if (!match || !owner || owner === pid || alive(owner)) continue;
    rmSync(join(dir, name), { recursive: match[1] === 'stdin', force: true });
    removed++;
  }
  return removed;
}
