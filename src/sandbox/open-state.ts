// Opening a sandbox's state: the database at a path (or in memory), with every resource's tables. A state kept before
// is moved over on first use: a JSON state of versions 1-4 (at the path, or at `legacy` where `--sandbox` kept it) is
// laid into a new database renamed into place and kept as FILE.bak; a database of the first layout is converted in
// place, in one transaction. Two processes doing this at once end with one database and nothing lost.
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { pid } from 'node:process';
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
  const here = kindOf(path);
  const json = here === 'json' ? path : !here && legacy && existsSync(legacy) ? legacy : undefined;
  if (json) importJson(path, json);
  const db = SandboxDb.open(path, allTables);
  if (db.firstLayout()) convertFirstLayout(db);
  return db;
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
  rmSync(temp, { force: true });
  const db = SandboxDb.open(temp, allTables);
  try {
    db.transaction(() => importLegacy(db, saved.state, saved.prospects()));
  } finally {
    db.close();
  }
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
