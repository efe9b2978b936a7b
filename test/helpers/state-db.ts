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

/** The state document (everything but the prospects). */
export function stateDocument(path: string): Record<string, any> {
  return withStateDb(path, (db) => JSON.parse((db.prepare('SELECT json FROM state').get() as { json: string }).json));
}

/** Each prospect shard's JSON, by shard index. */
export function shardRows(path: string): Map<number, string> {
  return withStateDb(
    path,
    (db) =>
      new Map(
        (db.prepare('SELECT shard, json FROM shards').all() as Array<{ shard: number; json: string }>).map((r) => [
          r.shard,
          r.json,
        ]),
      ),
  );
}
