// Reading a sandbox's SQLite state in tests, as any SQLite tool would.
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const Driver = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/** Runs `use` on the database at `path`, closed afterwards. */
export function withStateDb<T>(path: string, use: (db: BetterSqlite3.Database) => T): T {
  const db = new Driver(path);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The records of a table, in the order they were added. */
export function tableRows<T = Record<string, any>>(path: string, table: string): T[] {
  return withStateDb(path, (db) =>
    (db.prepare(`SELECT json FROM ${table} ORDER BY seq`).all() as Array<{ json: string }>).map(
      (row) => JSON.parse(row.json) as T,
    ),
  );
}

/** The account's single values (the id counter, when the seed was laid down). */
export function accountMeta(path: string): Record<string, any> {
  return withStateDb(path, (db) =>
    JSON.parse((db.prepare("SELECT json FROM meta WHERE name = 'account'").get() as { json: string }).json),
  );
}
