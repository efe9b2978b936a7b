// Files the tool writes and reads back. A file is created exclusively under a temporary name beside its target (O_EXCL:
// never through a link someone planted there) with mode 0600, and renamed into place: a symlink at the target is
// replaced, never written through, and no half-written file stands under the real name. A file read back to decide
// what to do (a journal, a lock) must be a regular file of this user that nobody else can write.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import type { Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { getuid, pid } from 'node:process';
import { InputFileError } from '../errors.js';

/** A temporary name beside `path`; the pid in it lets a later run remove it after a kill -9 (jobs/temp-files.ts). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.outreach-tmp-${pid}-${randomBytes(6).toString('hex')}`);
}

/** Opens a new file for writing, failing if anything (a file, a link) is already at `path`. */
export function openExclusive(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
}

/** Claims a name for a file this run will write, so that two runs started in the same second never share one: `path`
 * itself, or the first free `<stem>-2<suffix>`, `-3`, ... (`suffix` is the ending kept: `.not-enriched.csv`), created
 * empty and exclusively (0600). The file is then written under a temporary name and renamed onto it. `companions`
 * names the files that go with a candidate (a journal's failed file): a name whose companion an earlier run left is
 * not free either, even when that run removed its journal. */
export function claimUniquePath(
  path: string,
  suffix: string,
  companions: (candidate: string) => string[] = () => [],
): string {
  const stem = path.endsWith(suffix) ? path.slice(0, -suffix.length) : path;
  const ending = path.endsWith(suffix) ? suffix : '';
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? path : `${stem}-${n}${ending}`;
    if (companions(candidate).some((companion) => existsSync(companion))) continue;
    try {
      closeSync(openExclusive(candidate));
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || n >= 1000) throw error;
    }
  }
}

/** Writes `text` to a new temporary file, then renames it to `path`; returns the file, still open for appends. */
export function writeNewFile(path: string, text: string): number {
  const temp = tempPathFor(path);
  const fd = openExclusive(temp);
  try {
    writeSync(fd, text);
    renameSync(temp, path);
    return fd;
  } catch (error) {
    closeSync(fd);
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Opens an existing file of ours for appends, refusing a symlink at `path`. */
export function openForAppend(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
}

/** The current user, where the platform has users (not on Windows). */
const uid = getuid?.();

/** Why a file of `stat` is not to be trusted: a link, not a regular file, another user's, writable by others. */
export function distrust(stat: Stats): string | undefined {
  if (stat.isSymbolicLink()) return 'it is a symbolic link';
  if (!stat.isFile()) return 'it is not a regular file';
  if (uid !== undefined && stat.uid !== uid) return `it belongs to another user (uid ${stat.uid})`;
  if (stat.mode & 0o022)
    return `others may write it (mode ${(stat.mode & 0o777).toString(8).padStart(3, '0')}); chmod 600 it`;
  return undefined;
}

/** The text of `path` when it is a regular file of this user that no one else may write, checked on the file opened
 * (without following a link), so it cannot be swapped between the check and the read; undefined when there is none.
 * `hint` says what to do instead. */
export function readOwnFile(path: string, what: string, hint?: string, lastBytes?: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new InputFileError(path, `is not trusted as a ${what}: it is a symbolic link`, hint);
    throw error; // the caller says what the file is and what to do
  }
  try {
    const stat = fstatSync(fd);
    const why = distrust(stat);
    if (why) throw new InputFileError(path, `is not trusted as a ${what}: ${why}`, hint);
    if (lastBytes === undefined || stat.size <= lastBytes) return readFileSync(fd, 'utf8');
    // Only the end of a long file (a log): from the first whole line in its last `lastBytes`.
    const tail = Buffer.alloc(lastBytes);
    const read = readSync(fd, tail, 0, lastBytes, stat.size - lastBytes);
    const text = tail.subarray(0, read).toString('utf8');
    return text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}
