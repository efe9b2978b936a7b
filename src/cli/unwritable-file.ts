// A file the run could not create or write (a report beside a read-only input, a full disk): said by the name it
// was to have, in words, instead of a bare errno and --debug.
import { basename, dirname, join } from 'node:path';

const writeProblems: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'a read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
};

/** A file the run could not create or write, said by the name it was to have (not its temporary one), or undefined. */
export function unwritableFile(error: unknown): string | undefined {
  const { code, path, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  const why = code ? writeProblems[code] : undefined;
  // A write that fails for want of space names no file (Node's write errors carry no path): the disk is said.
  if (why && syscall === 'write' && typeof path !== 'string' && (code === 'ENOSPC' || code === 'EDQUOT'))
    return `cannot write a file: ${why}`;
  if (!why || typeof path !== 'string' || !['open', 'write', 'rename', 'mkdir'].includes(syscall ?? ''))
    return undefined;
  const temp = /^\.(.+)\.outreach-tmp-\d+-[0-9a-f]+$/.exec(basename(path));
  return `cannot write ${temp ? join(dirname(path), temp[1]!) : path}: ${why}`;
}
