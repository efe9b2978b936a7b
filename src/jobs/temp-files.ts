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
    // outreach-chunk-123-ab12cd-0.json, outreach-stdin-123-ab12cd, .leads.results.csv.outreach-tmp-123-ab12cd
    const owner = Number(/outreach-[a-z]+-(\d+)-[0-9a-f]{12}/.exec(name)?.[1]);
    if (!owner || owner === pid || alive(owner)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
