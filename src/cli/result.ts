// What a verb computes, handed to a front end to render: a list (rows, maybe a page at a time, with the columns that
// show them and the shape --json gives them), one record, a JSON value, a value with its plain text, an action done,
// a long job's end, things as they happen (a stream), CSV in a fixed header, or text as it is; each with the exit code
// it ends with and what a person is told after it. A verb that returns
// a result writes nothing itself: the CLI renders it in the format the user asked for (render/output.ts), and an
// agent's front end can take the same records as data.
import type { ExitCode } from './exit-codes.js';
import type { Column } from './render/columns.js';
import type { CsvCell } from '../io/csv-line.js';

/** How a list is shown beyond its columns. */
export interface ListOptions<T> {
  /** The object printed by --json / --ndjson; defaults to the row itself (unknown API fields pass through). */
  raw?(row: T): unknown;
  /** Printed on stderr on a TTY when the list is empty. */
  emptyMessage?: string;
}

/** Every kind of result, its rows of type T. */
type ResultOf<T> =
  | ListResult<T>
  | RecordResult<T>
  | JsonResult
  | DoneResult
  | ValueResult
  | JobResult
  | TextResult
  | StreamResult
  | CsvResult;

/** What a verb returns (its rows' type forgotten, so a list of any rows is one). */
export type VerbResult = ResultOf<never>;
/** A result as a renderer takes it apart. */
export type AnyResult = ResultOf<unknown>;

/** Text written as it is, whatever the format asked for: a shell script, a body that is not JSON. */
export interface TextResult extends Failure {
  kind: 'text';
  text: string;
  exitCode?: ExitCode;
}

export function textResult(text: string, exitCode?: ExitCode, failure: Failure = {}): VerbResult {
  return { kind: 'text', text, exitCode, ...failure };
}

/** One thing that happened, as data and as the line a person reads. */
export interface StreamItem {
  value: unknown;
  text: string;
}

/** Things as they happen (deliveries received, files uploaded, a server's address): each written when it comes, as
 * one JSON line under --json or --ndjson, else as its text; `after` says how it went once they end. */
export interface StreamResult {
  kind: 'stream';
  items: AsyncIterable<StreamItem>;
  after?: () => Ending;
  exitCode?: ExitCode;
}

export function streamResult(items: AsyncIterable<StreamItem>, after?: () => Ending): VerbResult {
  return { kind: 'stream', items, ...(after && { after }) };
}

/** CSV rows in a fixed header, whatever the format asked for (an export others import): to stdout, or to a file that
 * appears only once complete. */
export interface CsvResult {
  kind: 'csv';
  header: string[];
  rows: AsyncIterable<CsvCell[]>;
  /** The file to write (absolute), instead of stdout. */
  file?: string;
  /** Cells a spreadsheet would run as a formula get a leading quote. */
  neutraliseFormulas: boolean;
  exitCode?: ExitCode;
}

export function csvResult(spec: Omit<CsvResult, 'kind'>): VerbResult {
  return { kind: 'csv', ...spec };
}

/** Why a command ends with a non-zero exit and what to do next: printed last as `error: failing` and `hint: hint` on
 * stderr, always (also under --json and --quiet). With exit 0, `failing` is a warning. */
export interface Failure {
  failing?: string;
  hint?: string;
}

/** What is said once a list, a value or a stream has been written: what went wrong with some of it (`failing`, its
 * next step `hint`), what a person is told (`said`), a note also shown under --json, the exit code; and `error`, what
 * stopped the work part-way, thrown once the rest is said. */
export interface Ending extends Failure {
  said?: string;
  note?: string;
  exitCode?: ExitCode;
  error?: unknown;
}

/** A long job's end: its summary (what --json prints: counts, files, request ids), the one line that says how it went
 * (always shown when the job did not fully succeed, even under --json or --quiet), and what a person may do next. */
export interface JobResult extends Failure {
  kind: 'job';
  summary: unknown;
  outcome: string;
  said?: string;
  exitCode: ExitCode;
}

export function jobResult(
  summary: unknown,
  outcome: string,
  exitCode: ExitCode,
  more: Pick<JobResult, 'said' | 'failing' | 'hint'> = {},
): VerbResult {
  return { kind: 'job', summary, outcome, exitCode, ...more };
}

/** Rows that come a page at a time (a listing's pages as they arrive): written a page per write. */
export interface Pages<T> {
  pages: AsyncIterable<readonly T[]>;
}

export interface ListResult<T> extends Failure {
  kind: 'list';
  rows: Iterable<T> | AsyncIterable<T> | Pages<T>;
  columns: Column<T>[];
  options?: ListOptions<T>;
  /** Said after the list to a person (not under --quiet or machine output): that there is more, say. */
  said?: string;
  /** Said after the list, also under --json (not under --quiet): a count, how much more there is. */
  note?: string;
  /** The rows are read as a job: its progress shown, its patience with rate limits. */
  job?: boolean;
  /** What to say once every row is written (it may throw: nothing to show, say). */
  after?: () => Ending;
  exitCode?: ExitCode;
}

export interface RecordResult<T> extends Failure {
  kind: 'record';
  record: T;
  fields: Column<T>[];
  /** The object --json prints (default: the record). */
  raw?: unknown;
  exitCode?: ExitCode;
}

export interface JsonResult extends Failure {
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
  /** A warning after the message (not under --quiet). */
  warning?: string;
  exitCode?: ExitCode;
}

/** A value: itself under --json, else as `text` (an id a line, `id<TAB>outcome` lines); after it, for a person,
 * `said` (not under --quiet or machine output), a `note` (also under --json) and why it failed (always). */
export interface ValueResult extends Ending {
  kind: 'value';
  value: unknown;
  text: string;
}

export function valueResult(value: unknown, text: string, more: Ending = {}): VerbResult {
  return { kind: 'value', value, text, ...more };
}

export function listResult<T>(
  rows: Iterable<T> | AsyncIterable<T> | Pages<T>,
  columns: Column<T>[],
  options?: ListOptions<T>,
  end: Pick<ListResult<T>, 'failing' | 'hint' | 'said' | 'note' | 'job' | 'after' | 'exitCode'> = {},
): VerbResult {
  return { kind: 'list', rows, columns, options, ...end } as ListResult<T> as unknown as VerbResult;
}

export function recordResult<T>(
  record: T,
  fields: Column<T>[],
  raw?: unknown,
  exitCode?: ExitCode,
  failure: Failure = {},
): VerbResult {
  return { kind: 'record', record, fields, raw, exitCode, ...failure } as RecordResult<T> as unknown as VerbResult;
}

export function jsonResult(value: unknown, exitCode?: ExitCode, failure: Failure = {}): VerbResult {
  return { kind: 'json', value, exitCode, ...failure };
}

export function doneResult(message: string, value?: unknown, warning?: string): VerbResult {
  return { kind: 'done', message, value, ...(warning !== undefined && { warning }) };
}

/** An action done whose record costs a request to read: read only under --json. */
export function doneResultRead(message: string, read: () => Promise<unknown>): VerbResult {
  return { kind: 'done', message, read };
}
