// Report and export files, written through csv-stringify into a temporary file beside the target and renamed on
// commit: an interrupted run never leaves a half-written file under the real name.
import { randomBytes } from 'node:crypto';
import { pid } from 'node:process';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import type { Writable } from 'node:stream';
import { stringify, type Stringifier } from 'csv-stringify';
import { OutputClosed } from '../errors.js';

export type CsvCell = string | number | boolean | null | undefined;

export interface CsvWriteOptions {
  /** Prefix cells a spreadsheet would run as a formula (=, +, -, @, tab, CR) with a quote (OWASP CSV injection). */
  neutraliseFormulas?: boolean;
}

export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

function prepare(fields: CsvCell[], options: CsvWriteOptions): string[] {
  return fields.map((field) => {
    const text = field === null || field === undefined ? '' : String(field);
    return options.neutraliseFormulas ? neutralise(text) : text;
  });
}

async function writeRecord(stringifier: Stringifier, record: string[]): Promise<void> {
  if (!stringifier.write(record)) await once(stringifier, 'drain');
}

export interface CsvFileWriter {
  readonly path: string;
  write(fields: CsvCell[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

export async function createCsvFileWriter(
  path: string,
  header: string[],
  options: CsvWriteOptions = {},
): Promise<CsvFileWriter> {
  // The pid in the name lets the next import remove it after a kill -9 (jobs/temp-files.ts).
  const temp = join(dirname(path), `.${basename(path)}.outreach-tmp-${pid}-${randomBytes(6).toString('hex')}`);
  const file = createWriteStream(temp);
  await once(file, 'open');
  const stringifier = stringify({ record_delimiter: '\n' });
  stringifier.pipe(file);
  await writeRecord(stringifier, prepare(header, options));
  let finished = false;
  return {
    path,
    write: (fields) => writeRecord(stringifier, prepare(fields, options)),
    async commit() {
      if (finished) return;
      finished = true;
      stringifier.end();
      await once(file, 'close');
      await rename(temp, path);
    },
    async abort() {
      if (finished) return;
      finished = true;
      // A write still under way fails once the file is destroyed: that error is expected, the file is going away.
      stringifier.on('error', () => undefined);
      file.on('error', () => undefined);
      stringifier.destroy();
      file.destroy();
      // Not events.once: it would reject on that expected error.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await rm(temp, { force: true });
    },
  };
}

export interface CsvStreamWriter {
  write(fields: CsvCell[]): Promise<void>;
  end(): Promise<void>;
}

/** CSV to an open stream (stdout), header first when given. */
export function createCsvStreamWriter(
  out: Writable,
  header: string[] | null,
  options: CsvWriteOptions = {},
): CsvStreamWriter {
  const stringifier = stringify({ record_delimiter: '\n' });
  stringifier.pipe(out, { end: false });
  // A reader that goes away (`| head`) would leave a write waiting for 'drain' forever: fail it instead.
  let closed = false;
  const onClosed = () => {
    closed = true;
    stringifier.destroy(new OutputClosed());
  };
  out.once('close', onClosed);
  stringifier.on('error', () => undefined); // the next write reports it
  let started = false;
  const start = async () => {
    if (started) return;
    started = true;
    if (header) await writeRecord(stringifier, prepare(header, options));
  };
  return {
    async write(fields) {
      if (closed) throw new OutputClosed();
      await start();
      await writeRecord(stringifier, prepare(fields, options));
    },
    async end() {
      await start();
      const done = once(stringifier, 'end');
      stringifier.end();
      await done;
      out.off('close', onClosed);
    },
  };
}
