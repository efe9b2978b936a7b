// A resource's table in the sandbox database: one row a record, the record as JSON beside the columns its routes
// search or sort by (each computed from the record, so they never disagree with it), in the order records were added.
import type BetterSqlite3 from 'better-sqlite3';

type Database = BetterSqlite3.Database;
type SqlValue = string | number | null;

export interface ColumnSpec<T> {
  name: string;
  type?: 'TEXT' | 'INTEGER';
  value: (record: T) => SqlValue;
  /** An index on this column alone (unique: no two records share a value). */
  index?: boolean | 'unique';
}

export interface TableSpec<T> {
  /** The SQL table name. */
  name: string;
  /** The record's id, unique in the table. */
  id: (record: T) => string | number;
  columns?: ColumnSpec<T>[];
  /** Indexes over several columns, as their column lists ("list_id, value"), unique when marked. */
  compoundIndexes?: Array<{ columns: string; unique?: boolean }>;
}

export function defineTable<T>(spec: TableSpec<T>): TableSpec<T> {
  return spec;
}

/** The statements that make a table and its indexes; `existing` are the columns the table already has, when it
 * does: a column added since is added to it (empty until its records are written again). */
export function tableSchema(spec: TableSpec<never>, existing?: Set<string>): string[] {
  const columns = spec.columns ?? [];
  const statements = existing
    ? columns
        .filter((c) => !existing.has(c.name))
        .map((c) => `ALTER TABLE ${spec.name} ADD COLUMN ${c.name} ${c.type ?? 'TEXT'}`)
    : [
        `CREATE TABLE IF NOT EXISTS ${spec.name} (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL${columns
          .map((c) => `, ${c.name} ${c.type ?? 'TEXT'}`)
          .join('')})`,
      ];
  for (const column of columns)
    if (column.index)
      statements.push(
        `CREATE ${column.index === 'unique' ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${spec.name}_${column.name} ` +
          `ON ${spec.name} (${column.name})`,
      );
  for (const [i, index] of (spec.compoundIndexes ?? []).entries())
    statements.push(
      `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${spec.name}_c${i} ON ${spec.name} (${index.columns})`,
    );
  return statements;
}

/**
 * A table bound to a database. Reads parse the stored JSON afresh (records handed out are copies: change one, then
 * `put` it). `where` clauses are SQL over the declared columns, with `?` for the values given.
 */
export class Table<T> {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();
  private readonly columns: ColumnSpec<T>[];

  constructor(
    private readonly db: Database,
    readonly spec: TableSpec<T>,
  ) {
    this.columns = spec.columns ?? [];
  }

  get(id: string | number): T | undefined {
    return this.parse(this.statement(`SELECT json FROM ${this.spec.name} WHERE id = ?`).get(String(id)));
  }

  /** The first record (in the order they were added) that matches. */
  first(where = '1', ...params: SqlValue[]): T | undefined {
    return this.parse(
      this.statement(`SELECT json FROM ${this.spec.name} WHERE ${where} ORDER BY seq LIMIT 1`).get(...params),
    );
  }

  /** The matching records, in the order they were added unless `orderBy` says otherwise. */
  select(where = '1', params: SqlValue[] = [], { orderBy = 'seq', limit, offset = 0 }: SelectOptions = {}): T[] {
    const page = limit === undefined ? [] : [Math.max(0, Math.floor(limit)), Math.max(0, Math.floor(offset))];
    const sql = `SELECT json FROM ${this.spec.name} WHERE ${where} ORDER BY ${orderBy}${page.length ? ' LIMIT ? OFFSET ?' : ''}`;
    const rows = this.statement(sql).all(...params, ...page) as Array<{ json: string }>;
    return rows.map((row) => JSON.parse(row.json) as T);
  }

  /** The first `limit` matching rows in `orderBy` order as one JSON array text, built by SQLite: each row's `element`,
   * an SQL expression giving its JSON text. For pages read often (a list of a million values is ten thousand of them),
   * where making a string of each column in JavaScript and serialising them again cost most of the answer. The rows
   * come ordered from a subquery (its LIMIT keeps its ORDER BY), which costs a third less than ordering inside the
   * aggregate, a sort of each page's rows. The limit is written into the statement, not bound: SQLite compiles a
   * statement whose subquery's LIMIT is a parameter afresh at every run, a fifth of the query's cost (one statement
   * is kept for each limit asked for: callers pass a page size). */
  jsonArrayOf(element: string, where: string, params: SqlValue[], orderBy: string, limit: number): string {
    if (!Number.isSafeInteger(limit) || limit < 0) throw new RangeError(`not a row limit: ${limit}`);
    const sql =
      `SELECT '[' || COALESCE(group_concat(element, ','), '') || ']' AS rows ` +
      `FROM (SELECT ${element} AS element FROM ${this.spec.name} WHERE ${where} ORDER BY ${orderBy} LIMIT ${limit})`;
    return (this.statement(sql).get(...params) as { rows: string }).rows;
  }

  all(): T[] {
    return this.select();
  }

  /** The matching records one at a time (a table of a million rows is never held at once). */
  *iterate(where = '1', ...params: SqlValue[]): Generator<T> {
    const sql = `SELECT json FROM ${this.spec.name} WHERE ${where} ORDER BY seq`;
    for (const row of this.statement(sql).iterate(...params) as Iterable<{ json: string }>)
      yield JSON.parse(row.json) as T;
  }

  count(where = '1', ...params: SqlValue[]): number {
    return (
      this.statement(`SELECT COUNT(*) AS n FROM ${this.spec.name} WHERE ${where}`).get(...params) as { n: number }
    ).n;
  }

  /** A record's place in the order of adding (1 for the first ever added), or undefined. */
  seq(id: string | number): number | undefined {
    return (
      this.statement(`SELECT seq FROM ${this.spec.name} WHERE id = ?`).get(String(id)) as { seq: number } | undefined
    )?.seq;
  }

  /** Adds the record, or replaces the one with its id (keeping its place in the order). */
  put(record: T): void {
    const names = this.columns.map((c) => c.name);
    const sql =
      `INSERT INTO ${this.spec.name} (id, json${names.map((n) => `, ${n}`).join('')}) ` +
      `VALUES (?, ?${names.map(() => ', ?').join('')}) ` +
      `ON CONFLICT (id) DO UPDATE SET json = excluded.json${names.map((n) => `, ${n} = excluded.${n}`).join('')}`;
    this.statement(sql).run(
      String(this.spec.id(record)),
      JSON.stringify(record),
      ...this.columns.map((c) => c.value(record)),
    );
  }

  delete(id: string | number): void {
    this.statement(`DELETE FROM ${this.spec.name} WHERE id = ?`).run(String(id));
  }

  clear(): void {
    this.statement(`DELETE FROM ${this.spec.name}`).run();
  }

  /** A value computed over the matching rows (`MAX(CAST(id AS INTEGER))`, say). */
  aggregate(expression: string, where = '1', ...params: SqlValue[]): SqlValue {
    return (
      this.statement(`SELECT ${expression} AS v FROM ${this.spec.name} WHERE ${where}`).get(...params) as {
        v: SqlValue;
      }
    ).v;
  }

  private parse(row: unknown): T | undefined {
    return row === undefined ? undefined : (JSON.parse((row as { json: string }).json) as T);
  }

  private statement(sql: string): BetterSqlite3.Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }
}

export interface SelectOptions {
  orderBy?: string;
  limit?: number;
  offset?: number;
}
