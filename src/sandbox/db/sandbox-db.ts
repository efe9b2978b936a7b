// The sandbox's database (better-sqlite3, loaded only when a sandbox runs): a file shared by any number of processes
// (`--sandbox` commands side by side, `sandbox start --state`), or memory for a sandbox that keeps nothing. Writers
// take turns (BEGIN IMMEDIATE with a busy timeout); WAL with synchronous FULL, so a write is on disk once its
// transaction commits, and the server answers only then. A table a resource, declared beside its routes; `meta` holds
// the few single values (the id counter, the account, when the seed was laid down).
import { createRequire } from 'node:module';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { InputFileError } from '../../errors.js';
import { Table, tableSchema, type TableSpec } from './table.js';

type Database = BetterSqlite3.Database;

/** The database's layout version (PRAGMA user_version). 5: a table a resource; 0 with a `state` table: the state
 * document and prospect shards of the first database layout; JSON files before that were versions 1-4. */
export const schemaVersion = 5;

/** PRAGMA application_id of a sandbox state ("outr"): a database without it that holds tables of its own is not one. */
const sandboxApplicationId = 0x6f757472;
/** Tables of the first layout, before the mark. */
const firstLayoutTables = ['state', 'shards', 'blobs'];

export function startOver(path: string): string {
  return `Start over with \`outreach sandbox reset\` (or \`outreach sandbox reset --state ${path}\`).`;
}

/** How long a process waits for the others at the database: a write, or the switch of a new database to WAL. */
const busyTimeoutMs = 30_000;
/** How much of the database file is read through memory mapping (a state of a million DNC values is some 500 MB). */
const mmapBytes = 1024 * 1024 * 1024;

function connect(path: string | undefined): Database {
  // Loaded here, not at start-up: no command but a sandbox pays for the driver.
  const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  if (path === undefined) return new Driver(':memory:');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  // A new database starts as an empty file of mode 0600 (SQLite gives its log and index files the same mode).
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error; // made before, or by another process now
  }
  const db = new Driver(path);
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

export class SandboxDb {
  private readonly tables = new Map<TableSpec<never>, Table<never>>();
  private readonly getMeta: BetterSqlite3.Statement;
  private readonly setMeta: BetterSqlite3.Statement;

  private constructor(
    /** The file, or undefined for a database in memory. */
    readonly path: string | undefined,
    private readonly db: Database,
  ) {
    this.getMeta = db.prepare('SELECT json FROM meta WHERE name = ?');
    this.setMeta = db.prepare('INSERT OR REPLACE INTO meta (name, json) VALUES (?, ?)');
  }

  /** Opens (or makes) the database at `path` (in memory when undefined) with these tables. A database of a newer
   * layout is refused, naming the file and what to do. */
  static open(path: string | undefined, tables: Array<TableSpec<never>>): SandboxDb {
    const db = connect(path);
    try {
      // Looked at before anything is set: a database of something else is left exactly as it was.
      refuseForeign(db, path, tables);
      if (path !== undefined) {
        useWal(db);
        db.pragma('synchronous = FULL');
        // Pages read through memory mapping, not copied in by a system call each: a DNC list of a million values is
        // read as 10,000 pages of 100, and the copies cost a fifth of serving them.
        db.pragma(`mmap_size = ${mmapBytes}`);
      }
      db.exec('BEGIN IMMEDIATE');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > schemaVersion)
        throw new InputFileError(
          path ?? ':memory:',
          `is a sandbox state of a newer outreach (layout ${version}; this one reads up to ${schemaVersion})`,
          startOver(path ?? ''),
        );
      if (db.pragma('application_id', { simple: true }) !== sandboxApplicationId)
        db.pragma(`application_id = ${sandboxApplicationId}`);
      db.exec('CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, json TEXT NOT NULL)');
      for (const spec of tables)
        for (const statement of tableSchema(spec, columnsOf(db, spec.name))) db.exec(statement);
      if (version < schemaVersion && !hasTable(db, 'state')) db.pragma(`user_version = ${schemaVersion}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      db.close();
      throw error;
    }
    return new SandboxDb(path, db);
  }

  table<T>(spec: TableSpec<T>): Table<T> {
    let table = this.tables.get(spec as TableSpec<never>);
    if (!table) this.tables.set(spec as TableSpec<never>, (table = new Table(this.db, spec as TableSpec<never>)));
    return table as unknown as Table<T>;
  }

  meta<T>(name: string): T | undefined {
    const row = this.getMeta.get(name) as { json: string } | undefined;
    return row && (JSON.parse(row.json) as T);
  }

  putMeta(name: string, value: unknown): void {
    this.setMeta.run(name, JSON.stringify(value));
  }

  /** The state document and prospect shards of the first database layout, when this database still has them. */
  firstLayout(): { state: Record<string, unknown>; shards: () => Iterable<string> } | undefined {
    // Converted already (an older outreach may have made a `state` table again since): not again.
    if ((this.db.pragma('user_version', { simple: true }) as number) >= schemaVersion) return undefined;
    if (!hasTable(this.db, 'state')) return undefined;
    const row = this.db.prepare('SELECT json FROM state WHERE id = 1').get() as { json: string } | undefined;
    if (!row) return undefined;
    const shards = this.db.prepare('SELECT json FROM shards ORDER BY shard');
    return {
      state: JSON.parse(row.json) as Record<string, unknown>,
      shards: () => mapRows(shards),
    };
  }

  /** Drops the first layout's tables once their data is in the resource tables. */
  dropFirstLayout(): void {
    for (const name of ['state', 'shards', 'blobs']) this.db.exec(`DROP TABLE IF EXISTS ${name}`);
    this.db.pragma(`user_version = ${schemaVersion}`);
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

  begin(): void {
    this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void {
    this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  get inTransaction(): boolean {
    return this.db.inTransaction;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Switches the database to WAL. SQLite answers "database is locked" at once, without its busy timeout, when another
 * process holds the database at that moment (as when several commands open a new state together): try again. */
function useWal(db: Database): void {
  for (let waited = 0; ; waited += 20) {
    try {
      if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || waited >= busyTimeoutMs) throw error;
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20); // a short sleep: opening is synchronous
  }
}

/** Refuses a database that holds tables of something else, or another application's mark. */
function refuseForeign(db: Database, path: string | undefined, tables: Array<TableSpec<never>>): void {
  // Mark and tables read in one snapshot: another process may be making this database a sandbox state right now.
  const { mark, names } = db.transaction(() => ({
    mark: db.pragma('application_id', { simple: true }) as number,
    names: (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
      (t) => t.name,
    ),
  }))();
  if (mark === sandboxApplicationId) return;
  const ours = new Set(['meta', ...firstLayoutTables, ...tables.map((t) => t.name)]);
  const foreign = names.filter((name) => !ours.has(name) && !name.startsWith('sqlite_'));
  if (foreign.length || mark !== 0) {
    const holds = foreign.length ? `tables ${foreign.slice(0, 3).join(', ')}` : "another application's mark";
    throw new InputFileError(
      path ?? ':memory:',
      `is an SQLite database, but not a sandbox state (it holds ${holds}); nothing in it was changed`,
      'Give the file `sandbox start --state` made, or a new path.',
    );
  }
}

/** The columns of a table the database has, or undefined when it has no such table. */
function columnsOf(db: Database, name: string): Set<string> | undefined {
  const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as Array<{ name: string }>;
  return columns.length ? new Set(columns.map((c) => c.name)) : undefined;
}

function hasTable(db: Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

function* mapRows(statement: BetterSqlite3.Statement): Generator<string> {
  for (const row of statement.iterate() as Iterable<{ json: string }>) yield row.json;
}
