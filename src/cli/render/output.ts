// Writes lists and records in the format the user asked for (DESIGN.md convention 5):
// table on a TTY, headerless TSV when piped, or --json / --ndjson / --csv.
import { UsageError } from '../../errors.js';
import { pickColumns, pickFields, pickRecordFields } from './fields.js';
import type { Writable } from 'node:stream';
import { once } from 'node:events';
import type { CommandContext } from '../command-context.js';
import { ExitCode } from '../exit-codes.js';
import type {
  AnyResult,
  CsvResult,
  Ending,
  Failure,
  ListOptions,
  ListResult,
  Pages,
  StreamResult,
  VerbResult,
} from '../result.js';

export type { ListOptions } from '../result.js';
import { cellText, csvHeader, tsvLine, type Cell, type Column } from './columns.js';
import { TableDrawer, tableBlockRows, type TableLayout } from './table.js';
import { styled, visible } from '../terminal-text.js';

/** Writes and waits for the stream to drain, so long lists never pile up in memory. */
export async function writeOut(out: Writable, text: string): Promise<void> {
  if (!out.write(text)) await once(out, 'drain');
}

/** The CSV encoder loads with the first --csv output only (it is not on the start-up path of other commands). */
async function csvText(ctx: CommandContext, rows: Cell[][]): Promise<string> {
  const { csvLines } = await import('../../io/csv-line.js');
  return csvLines(
    rows.map((row) => row.map(cellText)),
    { neutraliseFormulas: !ctx.output.csvRaw },
  );
}

export interface ListWriter<T> {
  write(row: T): Promise<void>;
  /** Several rows in one write (a page of a listing): one system call instead of one a row. */
  writeMany(rows: readonly T[]): Promise<void>;
  end(): Promise<void>;
}

/** Streams rows as they arrive (a table a block of them at a time). */
export function createListWriter<T>(
  ctx: CommandContext,
  columns: Column<T>[],
  options: ListOptions<T> = {},
): ListWriter<T> {
  const { format, fields } = ctx.output;
  const whole = options.raw ?? ((row: T) => row);
  // Fields no record has are said at the end: a list's records may each lack some.
  const seen = new Set<string>();
  const raw = fields
    ? (row: T) => {
        const record = whole(row);
        if (record && typeof record === 'object') for (const key of Object.keys(record)) seen.add(key);
        return pickFields(record, fields);
      }
    : whole;
  if (format === 'table') columns = columns.filter((c) => !c.dataOnly);
  if (fields && (format === 'csv' || format === 'tsv' || format === 'table')) columns = pickColumns(columns, fields);
  const out = ctx.stdout;
  let count = 0;
  const table = format === 'table' ? tableBlocks(ctx, columns) : undefined;
  /** The text of one row in the chosen format (a table row is kept for its block instead). */
  const text = (row: T): string => {
    count++;
    switch (format) {
      case 'json':
        return `${count === 1 ? '[\n' : ',\n'}${indent(JSON.stringify(raw(row), null, 2))}`;
      case 'ndjson':
        return `${JSON.stringify(raw(row))}\n`;
      case 'csv':
        csvRows.push(
          ...(count === 1 ? [columns.map((c) => csvHeader(c.header))] : []),
          columns.map((c) => c.value(row)),
        );
        return '';
      case 'tsv':
        return `${tsvLine(columns.map((c) => c.value(row)))}\n`;
      case 'table':
        table!.add(row);
        return '';
    }
  };
  let csvRows: Cell[][] = [];
  const writeText = async (chunk: string) => {
    if (csvRows.length) {
      chunk = await csvText(ctx, csvRows);
      csvRows = [];
    }
    if (table) chunk = await table.drawn(false);
    if (chunk) await writeOut(out, chunk);
  };
  return {
    write: (row) => writeText(text(row)),
    writeMany: (rows) => writeText(rows.map(text).join('')),
    async end() {
      const missing =
        fields && count && (format === 'json' || format === 'ndjson') ? fields.filter((f) => !seen.has(f)) : [];
      if (missing?.length) ctx.warn(`--fields: no record has ${missing.join(', ')}`);
      if (format === 'json') await writeOut(out, count === 0 ? '[]\n' : '\n]\n');
      else if (format === 'csv' && count === 0)
        await writeOut(out, await csvText(ctx, [columns.map((c) => csvHeader(c.header))]));
      else if (format === 'table') {
        if (count === 0) ctx.info(options.emptyMessage ?? 'nothing to show');
        else {
          const rest = await table!.drawn(true);
          if (rest) await writeOut(out, rest);
        }
      }
    },
  };
}

/** A table's rows, drawn a block at a time (the first block decides its columns): memory stays flat at any length. */
function tableBlocks<T>(ctx: CommandContext, columns: Column<T>[]) {
  const drawer = new TableDrawer(
    columns.map((c) => c.header),
    tableLayout(ctx, columns),
  );
  let rows: string[][] = [];
  return {
    add(row: T): void {
      // On a terminal a value stays on its line (its own newlines shown as \n); only `lines` columns span lines.
      rows.push(
        columns.map((c) =>
          c.lines ? c.lines(row).join('\n') : visible(c.shown ? c.shown(row) : cellText(c.value(row))),
        ),
      );
    },
    /** The rows kept, drawn when a block is full (or at the end, `all`), else ''. */
    async drawn(all: boolean): Promise<string> {
      if (!rows.length || (!all && rows.length < tableBlockRows)) return '';
      const block = rows;
      rows = [];
      return drawer.draw(block);
    },
  };
}

function tableLayout<T>(ctx: CommandContext, columns: Column<T>[]): TableLayout {
  return {
    keys: columns.map((c, i) => i === 0 || Boolean(c.key)),
    wraps: columns.map((c) => Boolean(c.lines)),
    drops: columns.map((c) => c.drop),
    useful: columns.map((c) => c.useful ?? 0),
    width: ctx.output.wide ? undefined : ctx.columns,
    color: ctx.output.color,
  };
}

function indent(json: string): string {
  return json.replace(/^/gm, '  ');
}

/** Every row to `writer`, a page per write when they come in pages. */
async function writeRows<T>(writer: ListWriter<T>, rows: Iterable<T> | AsyncIterable<T> | Pages<T>): Promise<void> {
  if ('pages' in rows) for await (const page of rows.pages) await writer.writeMany(page);
  else for await (const row of rows) await writer.write(row);
}

/** A list result: its rows read (as a job when it says so: progress shown, the job's patience with rate limits), the
 * list ended once the job's spinner is gone, then what is said after it. */
async function renderList(ctx: CommandContext, list: ListResult<unknown>): Promise<ExitCode | undefined> {
  const writer = createListWriter(ctx, list.columns, list.options);
  await (list.job ? ctx.job(() => writeRows(writer, list.rows)) : writeRows(writer, list.rows));
  await writer.end();
  return sayEnding(ctx, { ...list, ...list.after?.() });
}

/** What is said once the output is written: what a person is told, a note; then what stopped the work, thrown (what
 * went wrong with some of it said first), or why the exit is not 0. */
function sayEnding(ctx: CommandContext, end: Ending): ExitCode | undefined {
  if (end.said) ctx.info(end.said);
  if (end.note) ctx.note(end.note);
  if (end.error) {
    if (end.failing) ctx.outcome(end.failing, true);
    throw end.error;
  }
  return sayFailure(ctx, end.exitCode, end);
}

/** What a non-zero exit says when its verb gave no words of its own. */
const fallbackFailure: Partial<Record<ExitCode, Required<Failure>>> = {
  [ExitCode.failure]: { failing: 'nothing was done', hint: 'The lines above say what failed and why.' },
  [ExitCode.partial]: {
    failing: 'some of it failed (partial success)',
    hint: 'The lines above say which and why; fix those and run them again.',
  },
};

/** A non-zero exit says why and what next, last on stderr, always (also under --json and --quiet): `error:` and
 * `hint:`. An exit 0 with something that went wrong says it as a warning. */
function sayFailure(ctx: CommandContext, code: ExitCode | undefined, { failing, hint }: Failure): ExitCode | undefined {
  if (!code) {
    if (failing) ctx.warn(failing);
    return code;
  }
  const fallback = fallbackFailure[code] ?? { failing: 'the command did not finish', hint: 'See above.' };
  ctx.failure(failing ?? fallback.failing, hint ?? fallback.hint);
  return code;
}

/** Each item as it comes: one JSON line for machine output, else its text. After Ctrl-C a reader that stopped reading
 * (a full pipe) does not hold the stop: the last items are handed to the stream without waiting for it to drain. */
async function renderStream(ctx: CommandContext, stream: StreamResult): Promise<ExitCode | undefined> {
  const machine = ctx.output.format === 'json' || ctx.output.format === 'ndjson';
  const stopped = new Promise<void>((resolve) =>
    ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  for await (const item of stream.items) {
    const written = writeOut(ctx.stdout, machine ? `${JSON.stringify(item.value)}\n` : item.text);
    written.catch(() => undefined); // a write let go after Ctrl-C fails unheard
    await Promise.race([written, stopped]);
  }
  return sayEnding(ctx, { exitCode: stream.exitCode, ...stream.after?.() });
}

/** CSV rows to stdout, or to a file that appears only once complete (none is left by a failure or Ctrl-C). On stdout,
 * --json and --ndjson get each row as an object keyed by the header instead. */
async function renderCsv(ctx: CommandContext, csv: CsvResult): Promise<void> {
  const { format } = ctx.output;
  // An export is the file as the service keeps it: its columns are not picked.
  if (ctx.output.fields && (csv.file || (format !== 'json' && format !== 'ndjson')))
    throw new UsageError('--fields does not apply to a CSV export', 'Give --json or --ndjson to pick fields of it.');
  if (!csv.file && (format === 'json' || format === 'ndjson')) {
    const writer = createListWriter<unknown[]>(
      ctx,
      csv.header.map((header, i) => ({ header, value: (row) => row[i] as Cell })),
      { raw: (row) => Object.fromEntries(csv.header.map((header, i) => [header, row[i]])) },
    );
    await writeRows(writer, csv.rows);
    return writer.end();
  }
  const { createCsvFileWriter, createCsvStreamWriter } = await import('../../io/csv-file-writer.js');
  const options = { neutraliseFormulas: csv.neutraliseFormulas };
  const writer = csv.file
    ? await createCsvFileWriter(csv.file, csv.header, options)
    : createCsvStreamWriter(ctx.stdout, csv.header, options);
  try {
    let rows = 0;
    for await (const row of csv.rows) {
      await writer.write(row);
      rows++;
    }
    if ('commit' in writer) await writer.commit();
    else await writer.end();
    // A file written says so: where, and how many rows (under --json as JSON, else on stderr for a person).
    const written = { file: csv.file, rows };
    if (csv.file && format === 'json') await writeJson(ctx, written);
    else if (csv.file && format === 'ndjson') await writeOut(ctx.stdout, `${JSON.stringify(written)}\n`);
    else if (csv.file) ctx.info(`Wrote ${rows} row(s) to ${csv.file}`);
  } catch (error) {
    if ('abort' in writer) await writer.abort();
    throw error;
  }
}

/** One record: key/value table on a TTY, `key<TAB>value` lines when piped, the object itself as JSON. */
export async function writeRecord<T>(
  ctx: CommandContext,
  record: T,
  fields: Column<T>[],
  raw: unknown = record,
): Promise<void> {
  const { format, color } = ctx.output;
  if (format === 'json' || format === 'ndjson') {
    const shown = ctx.output.fields ? pickRecordFields(raw, ctx.output.fields) : raw;
    return writeOut(ctx.stdout, `${JSON.stringify(shown, null, format === 'json' ? 2 : 0)}\n`);
  }
  if (ctx.output.fields) fields = pickColumns(fields, ctx.output.fields);
  if (format === 'csv') {
    await writeOut(
      ctx.stdout,
      await csvText(ctx, [fields.map((f) => csvHeader(f.header)), fields.map((f) => f.value(record))]),
    );
    return;
  }
  if (format === 'tsv') {
    for (const field of fields)
      await writeOut(ctx.stdout, `${tsvLine([field.header.toLowerCase(), field.value(record)])}\n`);
    return;
  }
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const width = Math.max(...fields.map((f) => visible(f.header).length));
  // A value on several lines (a schedule's week) continues under the first, past the field names.
  // Control characters in names and values are shown, not obeyed; chalk's own bold is marked for the terminal guard.
  const lines = fields.map((f) => {
    const value = f.lines
      ? f
          .lines(record)
          .map((line) => visible(line))
          .join(`\n${' '.repeat(width + 2)}`)
      : visible(cellText(f.value(record)));
    return `${chalk.bold(visible(f.header).padEnd(width))}  ${value}`;
  });
  await writeOut(ctx.stdout, styled(`${lines.join('\n')}\n`));
}

/** Writes what a verb returned in the format the user asked for, then what a person is told after it; the exit code
 * it ends with. */
export async function renderResult(ctx: CommandContext, result: VerbResult): Promise<ExitCode | undefined> {
  const shown = result as AnyResult;
  switch (shown.kind) {
    case 'list':
      return renderList(ctx, shown);
    case 'record':
      await writeRecord(ctx, shown.record, shown.fields, shown.raw ?? shown.record);
      break;
    case 'json':
      // One JSON value: indented, but on one line for --ndjson.
      if (ctx.output.format === 'ndjson')
        await writeOut(
          ctx.stdout,
          `${JSON.stringify(ctx.output.fields ? pickRecordFields(shown.value, ctx.output.fields) : shown.value)}\n`,
        );
      else await writeJson(ctx, shown.value);
      break;
    case 'value':
      await (ctx.flags.json ? writeJson(ctx, shown.value) : writeOut(ctx.stdout, shown.text));
      return sayEnding(ctx, shown);
    case 'done':
      // An action with no record to show prints nothing under --json.
      if (!ctx.flags.json) ctx.info(shown.message);
      else if (shown.value !== undefined) await writeJson(ctx, shown.value);
      else if (shown.read) await writeJson(ctx, await shown.read());
      if (shown.warning) ctx.warn(shown.warning);
      break;
    case 'text':
      await writeOut(ctx.stdout, shown.text);
      break;
    case 'stream':
      return renderStream(ctx, shown);
    case 'csv':
      await renderCsv(ctx, shown);
      break;
    case 'job': {
      // The summary is one document: indented under --json, one line under --ndjson. CSV and TSV have no rows to
      // give, so the outcome line is said as on a terminal (else the run would print nothing at all).
      const { format } = ctx.output;
      if (format === 'json') await writeJson(ctx, shown.summary);
      else if (format === 'ndjson') await writeOut(ctx.stdout, `${JSON.stringify(shown.summary)}\n`);
      const documented = format === 'json' || format === 'ndjson';
      ctx.outcome(shown.outcome, shown.exitCode !== 0 || (!documented && !ctx.output.quiet));
      if (shown.said) ctx.info(shown.said);
      break;
    }
    default:
      shown satisfies never;
  }
  return sayFailure(ctx, shown.exitCode, 'failing' in shown ? shown : {});
}

/** Prints a JSON value as is (for --json summaries and `outreach api`), only its --fields when given. */
export function writeJson(ctx: CommandContext, value: unknown): Promise<void> {
  const { fields } = ctx.output;
  const shown = !fields
    ? value
    : Array.isArray(value)
      ? value.map((v) => pickFields(v, fields))
      : pickRecordFields(value, fields);
  return writeOut(ctx.stdout, `${JSON.stringify(shown, null, 2)}\n`);
}
