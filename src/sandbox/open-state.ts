// Opening a sandbox's state: the database at a path (or in memory), with every resource's tables. A state kept before
// is moved over on first use: a JSON state of versions 1-4 (at the path, or at `legacy` where `--sandbox` kept it) is
// laid into a new database renamed into place and kept as FILE.bak; a database of the first layout is converted in
// place, in one transaction. Two processes doing this at once end with one database and nothing lost: a JSON state is
// moved over by one process at a time (a lock file beside it), each looking again once it holds the lock.
import {
  closeSync,
  existsSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { pid } from 'node:process';
import { processAlive } from '../process-alive.js';
import { SandboxDb } from './db/sandbox-db.js';
import { importLegacy, type LegacyProspect, type LegacyState } from './legacy-state.js';
import { allTables } from './resources/index.js';
import { loadState, upgrade } from './state-file.js';

/** What the file at `path` holds, by its first bytes: a database (or one being made: an empty file), or a JSON state
 * of an older version; undefined when there is no file. */
function kindOf(path: string): 'sqlite' | 'json' | undefined {
  let head = Buffer.alloc(16);
  try {
    const fd = openSync(path, 'r');
    try {
      head = head.subarray(0, readSync(fd, head, 0, 16, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return /^\s*\{/.test(head.toString('latin1')) ? 'json' : 'sqlite';
}

/** The state at `path` (in memory when undefined), moved over from an older form first when it is one. */
export function openSandboxDb(path: string | undefined, legacy?: string): SandboxDb {
  if (path === undefined) return SandboxDb.open(undefined, allTables);
  if (jsonToImport(path, legacy))
    withMigrationLock(path, () => {
      const json = jsonToImport(path, legacy); // another process may have moved it over while this one waited
      if (json) importJson(path, json);
    });
  const db = SandboxDb.open(path, allTables);
  try {
    if (db.firstLayout()) convertFirstLayout(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** The JSON state to move over: at `path`, or at `legacy` when there is nothing at `path` yet. */
function jsonToImport(path: string, legacy: string | undefined): string | undefined {
  const here = kindOf(path);
  return here === 'json' ? path : !here && legacy && existsSync(legacy) ? legacy : undefined;
}

/** How long to wait for another process's lock: so many naps of 50 ms (two minutes). */
const lockNaps = 2400;

/** Runs `work` holding `<path>.migrating` (made whole by a link, naming this process); a lock whose process is gone
 * is taken over. Waits at most two minutes for another process's lock. */
function withMigrationLock(path: string, work: () => void): void {
  const lock = `${path}.migrating`;
  const mine = `${lock}.${pid}`;
  writeFileSync(mine, String(pid), { mode: 0o600 });
  try {
    for (let nap = 0; ; nap++) {
      try {
        linkSync(mine, lock);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      if (!processAlive(Number(readText(lock)))) rmSync(lock, { force: true });
      else if (nap > lockNaps)
        throw new Error(`${lock}: another process has been moving the state over for two minutes`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); // a short sleep: this path is synchronous
    }
  } finally {
    rmSync(mine, { force: true });
  }
  try {
    work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Whether a state is kept at `path` (or, for `--sandbox`, at the older `legacy` place). */
export function stateExists(path: string, legacy?: string): boolean {
  return existsSync(path) || (legacy !== undefined && existsSync(legacy));
}

/** Reads the JSON state (it throws, naming the file, if it cannot be read), lays it into a new database beside `path`,
 * keeps the JSON as .bak and renames the database into place. */
function importJson(path: string, json: string): void {
  const saved = loadState(json)!;
  const temp = `${path}.importing-${pid}`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
  const db = SandboxDb.open(temp, allTables);
  try {
    db.transaction(() => importLegacy(db, saved.state, saved.prospects()));
  } catch (error) {
    db.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(temp + suffix, { force: true });
    throw error;
  }
  db.close();
  try {
    renameSync(json, `${json}.bak`);
  } catch (error) {
    // Another process moved it over first: its database is the one.
    rmSync(temp, { force: true });
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || json === path) throw error;
    return;
  }
  renameSync(temp, path);
}

function convertFirstLayout(db: SandboxDb): void {
  db.transaction(() => {
    const first = db.firstLayout(); // read again in the transaction: another process may have converted it
    if (!first) return;
    const state = upgrade(db.path!, first.state) as unknown as LegacyState & { prospects?: unknown };
    const prospects = function* (): Generator<LegacyProspect> {
      for (const shard of first.shards()) yield* JSON.parse(shard) as LegacyProspect[];
    };
    // The shards are read while the rows are written: read them all first (one shard at a time is all SQLite allows
    // while the same connection writes).
    importLegacy(db, state, [...prospects()]);
    db.dropFirstLayout();
  });
}
