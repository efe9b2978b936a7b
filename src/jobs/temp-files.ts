// Temporary files that hold prospect data (a copy of stdin, chunk spools, downloaded and half-written reports) live in a folder of
// the user's own and carry the pid of the process that made them. Every exit path of that process removes them;
// after a kill -9 nothing can, so the next import sweeps the ones whose process is gone. The folder keeps that sweep
// cheap: a shared /tmp may hold tens of thousands of entries (58,000 here: 40-50 ms to list on every import).
import { randomBytes } from 'node:crypto';
// The pid is the identity of this process on the machine, which temporary file names carry (not configuration).
import { getuid, pid } from 'node:process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../process-alive.js';

let privateDir: string | undefined;

/** `<tmp>/outreach-<uid>`, made 0700; if that name is taken by anything but our own private folder (another user, a
 * symlink), a fresh folder for this run instead. */
export function tempDir(): string {
  if (privateDir) return privateDir;
  const dir = join(tmpdir(), `outreach-${getuid?.() ?? 'user'}`);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  const ours = stat.isDirectory() && (stat.mode & 0o077) === 0 && stat.uid === (getuid?.() ?? stat.uid);
  privateDir = ours ? dir : mkdtempSync(join(tmpdir(), 'outreach-'));
  return privateDir;
}

/** `outreach-<kind>-<pid>-<random><suffix>`: a name sweepOrphans can tie to its process. */
export function tempName(kind: string, suffix = ''): string {
  return `outreach-${kind}-${pid}-${randomBytes(6).toString('hex')}${suffix}`;
}

/** Removes, from `dir`, temporary files of outreach processes that no longer run. Returns how many. */
export function sweepOrphans(dir: string = tempDir()): number {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    // Exactly the names this tool makes: outreach-report-<pid>-<hex>.csv, outreach-stdin-<pid>-<hex> (a folder),
    // .<report name>.outreach-tmp-<pid>-<hex>, and outreach-chunk-<pid>-<hex>-<n>.json (an import chunk's spool):
    // rows of prospects a kill -9 may have left.
    const match =
      /^outreach-(chunk|report|stdin)-(\d+)-[0-9a-f]{12}(-\d+\.json|\.csv)?$/.exec(name) ??
      /^\..+\.outreach-(tmp)-(\d+)-[0-9a-f]{12}$/.exec(name);
    const owner = Number(match?.[2]);
    if (!match || !owner || owner === pid || processAlive(owner)) continue;
    rmSync(join(dir, name), { recursive: match[1] === 'stdin', force: true });
    removed++;
  }
  return removed;
}
