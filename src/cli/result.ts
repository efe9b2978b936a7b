// What a verb computes, handed to a front end to render: a list (rows, maybe a page at a time, with the columns that
// show them and the shape --json gives them), one record, a JSON value, a value with its plain text, an action done,
// or a long job's end; each with the exit code it ends with and what a person is told after it. A verb that returns
// a result writes nothing itself: the CLI renders it in the format the user asked for (render/output.ts), and an
// agent's front end can take the same records as data.
import type { ExitCode } from './exit-codes.js';
import type { Column } from './render/columns.js';

/** How a list is shown beyond its columns. */
export interface ListOptions<T> {
  /** The object printed by --json / --ndjson; defaults to the row itself (unknown API fields pass through). */
  raw?(row: T): unknown;
  /** Printed on stderr on a TTY when the list is empty. */
  emptyMessage?: string;
}

export type VerbResult = ListResult<never> | RecordResult<never> | JsonResult | DoneResult | ValueResult | JobResult;

/** A long job's end: its summary (what --json prints: counts, files, request ids), the one line that says how it went
 * (always shown when the job did not fully succeed, even under --json or --quiet), and what a person may do next. */
export interface JobResult {
  kind: 'job';
  summary: unknown;
  outcome: string;
  said?: string;
  exitCode: ExitCode;
}

export function jobResult(summary: unknown, outcome: string, exitCode: ExitCode, said?: string): VerbResult {
  return { kind: 'job', summary, outcome, exitCode, ...(said !== undefined && { said }) };
}

/** Rows that come a page at a time (a listing's pages as they arrive): written a page per write. */
export interface Pages<T> {
  pages: AsyncIterable<readonly T[]>;
}

export interface ListResult<T> {
  kind: 'list';
  rows: Iterable<T> | AsyncIterable<T> | Pages<T>;
  columns: Column<T>[];
  options?: ListOptions<T>;
  /** Said after the list, always (even under --json or --quiet): what went wrong with some of the rows. */
  failing?: string;
  /** Said after the list to a person (not under --quiet or machine output): that there is more, say. */
  said?: string;
  /** Said after the list, also under --json (not under --quiet): a count, how much more there is. */
  note?: string;
  /** The rows are read as a job: its progress shown, its patience with rate limits. */
  job?: boolean;
  /** What to say once every row is written (it may throw: nothing to show, say). */
  after?: () => Pick<ListResult<T>, 'failing' | 'said' | 'note' | 'exitCode'>;
  exitCode?: ExitCode;
}

export interface RecordResult<T> {
  kind: 'record';
  record: T;
  fields: Column<T>[];
  /** The object --json prints (default: the record). */
  raw?: unknown;
  /** Said after the record, always (even under --json or --quiet): what went wrong with it. */
  failing?: string;
  exitCode?: ExitCode;
}

export interface JsonResult {
  kind: 'json';
  value: unknown;
  exitCode?: ExitCode;
}

/** An action done: said in words to a person; under --json, the record it changed (read only when asked for, when
 * that costs a request). */
export interface DoneResult {
  kind: 'done';
  message: string;
  value?: unknown;
  /** The record, read only when --json asks for it (a request more). */
  read?: () => Promise<unknown>;
  exitCode?: ExitCode;
}

/** A value: itself under --json, else as `text` (an id a line, `id<TAB>outcome` lines); after it, for a person,
 * `said` (not under --quiet or machine output), a `note` (also under --json) and a `failing` outcome (always). */
export interface ValueResult {
  kind: 'value';
  value: unknown;
  text: string;
  said?: string;
  note?: string;
  failing?: string;
  exitCode?: ExitCode;
}

export function valueResult(
  value: unknown,
  text: string,
  more: Pick<ValueResult, 'said' | 'note' | 'failing' | 'exitCode'> = {},
): VerbResult {
  return { kind: 'value', value, text, ...more };
}

export function listResult<T>(
  rows: Iterable<T> | AsyncIterable<T> | Pages<T>,
  columns: Column<T>[],
  options?: ListOptions<T>,
  end: Pick<ListResult<T>, 'failing' | 'said' | 'note' | 'job' | 'after' | 'exitCode'> = {},
): VerbResult {
  return { kind: 'list', rows, columns, options, ...end } as ListResult<T> as unknown as VerbResult;
}

export function recordResult<T>(
  record: T,
  fields: Column<T>[],
  raw?: unknown,
  exitCode?: ExitCode,
  failing?: string,
): VerbResult {
  return { kind: 'record', record, fields, raw, exitCode, failing } as RecordResult<T> as unknown as VerbResult;
}

export function jsonResult(value: unknown): VerbResult {
  return { kind: 'json', value };
}

export function doneResult(message: string, value?: unknown): VerbResult {
  return { kind: 'done', message, value };
}

/** An action done whose record costs a request to read: read only under --json. */
export function doneResultRead(message: string, read: () => Promise<unknown>): VerbResult {
  return { kind: 'done', message, read };
}
