// Report and export files, written through csv-stringify into a temporary file beside the target and renamed on
// commit: an interrupted run never leaves a half-written file under the real name, and a link planted at either name
// is never written through (the temporary file is created exclusively, 0600, see safe-file.ts).
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { claimUniquePath, openExclusive, tempPathFor } from './safe-file.js';
import type { CsvBadRow, CsvMarks, CsvRow } from './csv-reader.js';
import { iconvName, type CsvEncoding } from './csv-sniff.js';
import { csvLines, type CsvCell, type CsvWriteOptions } from './csv-line.js';
import { OutputClosed } from '../errors.js';

export type { CsvCell, CsvWriteOptions } from './csv-line.js';

export interface CsvFileWriter {
  readonly path: string;
  write(fields: CsvCell[]): Promise<void>;
  /** A record of the user's file after `before` (row, reason): as it stands in the file when its quoting is broken
   * (read back, it is the same broken record, never its values quietly joined), else its fields. */
  writeRecord(before: CsvCell[], record: CsvRow | CsvBadRow, delimiter: string): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** Characters Windows-1252 has no byte for (a list's name in Cyrillic, in a reason we write): written as \u041a,
 * never as the "?" iconv would put in their place. */
// eslint-disable-next-line no-control-regex -- every byte below 0x80 is one 1252 has
const beyond1252 = /[^\x00-\x7f\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/gu;
const escaped = (character: string) => {
  const code = character.codePointAt(0)!;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Text as the bytes of `encoding` (UTF-8 without one). Lines are written whole, so no character is split. */
async function encoderFor(encoding: CsvEncoding | undefined): Promise<(text: string) => string | Buffer> {
  if (encoding === undefined || encoding === 'utf8') return (text) => text;
  const iconv = (await import('iconv-lite')).default;
  const name = iconvName(encoding);
  if (name !== 'win1252') return (text) => iconv.encode(text, name);
  return (text) => iconv.encode(text.replace(beyond1252, escaped), name);
}

async function writeText(out: Writable, text: string | Buffer): Promise<void> {
  if (out.write(text)) return;
  // Until it drains; a stream destroyed meanwhile (an abort) ends the wait too, with an error.
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain).off('close', onClose).off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new Error('the file was closed before this write was done'));
    out.on('drain', onDrain).on('close', onClose).on('error', settle);
  });
}

/** `marks`: the byte-order mark and line ending of the input whose rows the file holds (see CsvMarks).
 * `unique`: the name is this run's own (a default name with a time in it): `path`, or the first free `-2`, `-3`, ...
 * before that ending, claimed at once (claimUniquePath); the writer's `path` says which. */
export async function createCsvFileWriter(
  given: string,
  header: string[],
  options: CsvWriteOptions & { unique?: string; marks?: CsvMarks } = {},
): Promise<CsvFileWriter> {
  const path = options.unique === undefined ? given : claimUniquePath(given, options.unique);
  const temp = tempPathFor(path);
  let fd: number;
  try {
    fd = openExclusive(temp);
  } catch (error) {
    if (options.unique !== undefined) await rm(path, { force: true });
    throw error;
  }
  const file = createWriteStream(temp, { fd });
  const { marks } = options;
  const eol = marks?.lineEnding ?? options.lineEnding ?? '\n';
  const separator = marks?.delimiter ?? ',';
  const lines: CsvWriteOptions = {
    neutraliseFormulas: options.neutraliseFormulas,
    lineEnding: eol,
    delimiter: separator,
  };
  // In the input's encoding: its rows came from it, and Excel reads the file back as it read the input.
  const encode = await encoderFor(marks?.encoding);
  const put = (text: string) => writeText(file, encode(text));
  await put(
    `${marks?.bom ? '\uFEFF' : ''}${marks?.excelSep ? `sep=${separator}${eol}` : ''}${csvLines([header], lines)}`,
  );
  let finished = false;
  return {
    path,
    write: (fields) => put(csvLines([fields], lines)),
    writeRecord(before, record, delimiter) {
      const raw = 'raw' in record && record.raw !== null && delimiter === separator ? record.raw : undefined;
      if (raw === undefined) return put(csvLines([[...before, ...record.fields]], lines));
      const prefix = before.length ? `${csvLines([before], lines).slice(0, -eol.length)}${separator}` : '';
      return put(`${prefix}${raw}${eol}`);
    },
    async commit() {
      if (finished) return;
      finished = true;
      file.end();
      await once(file, 'close');
      await rename(temp, path);
    },
    async abort() {
      if (finished) return;
      finished = true;
      // A write still under way fails once the file is destroyed: that error is expected, the file is going away.
      file.on('error', () => undefined);
      file.destroy();
      // Not events.once: it would reject on that expected error.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await rm(temp, { force: true });
      if (options.unique !== undefined) await rm(path, { force: true }); // the name claimed, empty
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
  // A reader that goes away (`| head`) would leave a write waiting for 'drain' forever: fail it instead.
  let closed = false;
  const onClosed = () => (closed = true);
  out.once('close', onClosed);
  let pending = header ? csvLines([header], options) : '';
  return {
    async write(fields) {
      if (closed) throw new OutputClosed();
      await writeText(out, pending + csvLines([fields], options));
      pending = '';
    },
    async end() {
      if (pending && !closed) await writeText(out, pending);
      out.off('close', onClosed);
    },
  };
}

/** A report's header: its row and reason columns, then the input's own. Where the input has a "row" or "reason" column
 * of its own, ours are "outreach_row" and "outreach_reason": two columns of one name read back as one. */
export function reportHeader(inputHeader: string[]): string[] {
  const taken = new Set(inputHeader.map((name) => name.trim().toLowerCase()));
  const ours = taken.has('row') || taken.has('reason') ? ['outreach_row', 'outreach_reason'] : ['row', 'reason'];
  return [...ours, ...inputHeader];
}
