// Input files are checked before anything is sent, and their problems said in words: a folder, a missing file or
// one this user cannot read is a usage error (exit 2) naming the path, not a system error code. `-` is stdin.
import {
  accessSync,
  closeSync,
  constants,
  createReadStream,
  openSync,
  readFileSync,
  readSync,
  statSync,
} from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { InputFileError } from '../errors.js';
import { formatCount } from '../format.js';
import { readText } from './read-text.js';

/** What went wrong with a file, in words. */
export function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied: this user cannot read it';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    default:
      return `cannot be read (${code ?? (error as Error)?.message ?? String(error)})`;
  }
}

/** Throws an InputFileError (exit 2) unless `path` is a regular file this process can read. `shown` is how the
 * user wrote it, with the flag when there is one ("--file: ids.txt"). */
export function checkReadableFile(path: string, shown: string = path): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw new InputFileError(shown, fileProblem(error));
  }
  if (!isFile) throw new InputFileError(shown, 'is a folder or a device, not a file');
}

/** A file about to be uploaded, checked: readable, not empty, within `maxBytes`. Returns its size and first bytes. */
export function checkUpload(path: string, shown: string, maxBytes: number): { size: number; head: Buffer } {
  checkReadableFile(path, shown);
  const size = statSync(path).size;
  if (size === 0) throw new InputFileError(shown, 'is empty');
  if (size > maxBytes)
    throw new InputFileError(
      shown,
      `is ${formatCount(size)} bytes; the service takes at most ${formatCount(maxBytes)} (${maxBytes / 2 ** 20} MB)`,
    );
  const head = Buffer.alloc(16);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  return { size, head };
}

/** What an option that reads a file needs from the command: where relative paths start, and stdin for `-`. */
export interface InputPlace {
  cwd: string;
  stdin: Readable;
}

/** Every option that reads a file takes `-` for stdin. */
export const isStdin = (value: string): boolean => value === '-';

/** A stream over an input: stdin for `-`, else the file, checked first. `shown` names it in messages. */
export function openInput(value: string, place: InputPlace, shown: string): { stream: Readable; path?: string } {
  if (isStdin(value)) return { stream: place.stdin };
  const path = resolve(place.cwd, value);
  checkReadableFile(path, shown);
  const stream = createReadStream(path);
  return { stream, path };
}

/** The whole text of a small input (a body, a mapping, saved filters): stdin for `-`, else the file. */
export async function readInputText(value: string, place: InputPlace, shown: string): Promise<string> {
  if (isStdin(value)) return readText(place.stdin);
  const path = resolve(place.cwd, value);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new InputFileError(shown, fileProblem(error));
  }
}
