// The sandbox's state in an SQLite database (better-sqlite3, loaded only when a sandbox keeps a state), so any number of
// processes (`--sandbox` commands side by side, `sandbox start --state`) share one state safely: each request runs in
// one transaction (BEGIN IMMEDIATE: writers take turns, with a busy timeout), a process reloads what another one
// committed before it handles a request, and a write is answered only once its transaction has committed (WAL,
// synchronous FULL). Tables: the state document (everything but the prospects), the prospect shards by index (the
// shards of prospect-book.ts, read on demand), and the owner table. A JSON state of versions 1-4 is imported on first
// use and kept beside the database as FILE.bak.
import { createRequire } from 'node:module';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { pid } from 'node:process';
import type BetterSqlite3 from 'better-sqlite3';
import { ProspectBook, type ProspectFileReader, type ProspectFiles, type ShardPlace } from './prospect-book.js';
import type { ProspectRecord, SandboxState } from './model.js';
import { loadState, type SavedSandbox, type StateSnapshot } from './state-file.js';

type Database = BetterSqlite3.Database;

const schema = `
  CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS shards (shard INTEGER PRIMARY KEY, json TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS blobs (name TEXT PRIMARY KEY, data BLOB NOT NULL);
`;

/** What the file at `path` holds, by its first bytes: a database (or one being made: an empty file), or a JSON state
 * of an older version; undefined when there is no file. */
function kindOf(path: string): 'sqlite' | 'json' | undefined {
  let head: Buffer;
  try {
    const fd = openSync(path, 'r');
    try {
      head = Buffer.alloc(16);
      head = head.subarray(0, readSync(fd, head, 0, 16, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return /^\s*\{/.test(head.toString('latin1')) ? 'json' : 'sqlite';
}

function openDatabase(path: string): Database {
  // Loaded here, not at start-up: no command but a sandbox with a state pays for the driver.
  const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // A new database starts as an empty file of mode 0600 (SQLite gives its log and index files the same mode).
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // made before, or by another process now
  }
  const db = new Driver(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 30000');
  db.exec(schema);
  return db;
}

export class StateDb {
  /** The data version last seen by this connection: another connection's commit changes it. */
  private seen: number | undefined;

  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {}

  /** The database at `path`, made from the JSON state there (kept as `path.bak`) or `legacy` when it holds one. */
  static open(path: string, legacy?: string): StateDb {
    const here = kindOf(path);
    const json = here === 'json' ? path : !here && legacy && existsSync(legacy) ? legacy : undefined;
    if (!json) return new StateDb(path, openDatabase(path));
    // Read first (it throws, naming the file, if it cannot be read), then written into a new database renamed over it.
    const saved = loadState(json)!;
    const temp = `${path}.importing-${pid}`;
    rmSync(temp, { force: true });
    const db = new StateDb(temp, openDatabase(temp));
    // Every prospect is read (a version 4 state keeps them in segment files beside it) into a book saved whole.
    const book = ProspectBook.of([...saved.prospects.all()]);
    db.transaction(() => db.save({ main: saved.state, prospects: book.changes() }));
    db.close();
    try {
      renameSync(json, `${json}.bak`);
    } catch (error) {
      // Another process moved it over first: its database is the one.
      rmSync(temp, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || json === path) throw error;
      return new StateDb(path, openDatabase(path));
    }
    renameSync(temp, path);
    return new StateDb(path, openDatabase(path));
  }

  /** The state as saved, or undefined when none was saved yet. */
  load(): SavedSandbox | undefined {
    const row = this.db.prepare('SELECT json FROM state WHERE id = 1').get() as { json: string } | undefined;
    if (!row) return undefined;
    const { prospects, ...state } = JSON.parse(row.json) as SandboxState & { prospects: ProspectFiles };
    return { state: state as SandboxState, prospects: ProspectBook.saved(prospects, this.reader()) };
  }

  /** Saves a snapshot: the state, the prospect shards touched since the last save, the owner table if it grew. */
  save(snapshot: StateSnapshot): void {
    const { generation, shards, owners } = snapshot.prospects;
    const places = new Map<number, ShardPlace>();
    const putShard = this.db.prepare('INSERT OR REPLACE INTO shards (shard, json) VALUES (?, ?)');
    for (const [index, prospects] of shards) {
      putShard.run(index, JSON.stringify(prospects));
      places.set(index, [generation, index, 0]);
    }
    if (owners)
      this.db
        .prepare("INSERT OR REPLACE INTO blobs (name, data) VALUES ('owners', ?)")
        .run(Buffer.from(owners.buffer, owners.byteOffset, owners.byteLength));
    const files = snapshot.prospects.files(places);
    this.db
      .prepare('INSERT OR REPLACE INTO state (id, json) VALUES (1, ?)')
      .run(JSON.stringify({ ...snapshot.main, prospects: files }));
    snapshot.prospects.committed(files);
  }

  /** Runs `work` in one write transaction. */
  transaction<T>(work: () => T): T {
    this.begin();
    try {
      const result = work();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /** Starts a write transaction; true when another connection committed since this one last looked. */
  begin(): boolean {
    this.db.exec('BEGIN IMMEDIATE');
    const version = this.db.pragma('data_version', { simple: true }) as number;
    const changed = this.seen !== undefined && version !== this.seen;
    this.seen = version;
    return changed;
  }

  commit(): void {
    this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  close(): void {
    this.db.close();
  }

  private reader(): ProspectFileReader {
    const shard = this.db.prepare('SELECT json FROM shards WHERE shard = ?');
    const owners = this.db.prepare("SELECT data FROM blobs WHERE name = 'owners'");
    return {
      shard: ([, index]) => JSON.parse((shard.get(index) as { json: string }).json) as ProspectRecord[],
      owners: () => {
        const bytes = (owners.get() as { data: Buffer }).data;
        return new Uint16Array(bytes.buffer, bytes.byteOffset, bytes.length >> 1).slice();
      },
    };
  }
}

/** The state at `path` to read without changing anything (`sandbox export`): a database, a JSON state of an older
 * version, or `legacy` (the JSON `--sandbox` kept before); undefined when there is none yet. `close` when done. */
export function readSavedState(path: string, legacy?: string): { saved: SavedSandbox | undefined; close(): void } {
  if (kindOf(path) === 'sqlite') {
    const db = StateDb.open(path);
    return { saved: db.load(), close: () => db.close() };
  }
  const json = existsSync(path) ? path : legacy && existsSync(legacy) ? legacy : undefined;
  return { saved: json ? loadState(json) : undefined, close: () => undefined };
}
