// A job's input file, named as the user gave it: a path, or - for stdin, which is copied to a private temporary file
// first (a job reads its input more than once: an import's results pass, a sync's look at the header).
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Interrupted } from '../errors.js';
import { checkReadableFile } from '../io/input-file.js';
import { openExclusive } from '../io/safe-file.js';
import type { JobContext } from './context.js';
import { sweepOrphans, tempDir, tempName } from './temp-files.js';

export interface InputFile {
  path: string;
  /** Report names start with this: the input path without its extension. */
  base: string;
  fromStdin: boolean;
  cleanup(): Promise<void>;
}

/** stdin is copied to a temporary file first: the results pass reads the input a second time. */
export async function openJobInput(
  ctx: Pick<JobContext, 'cwd' | 'stdin' | 'signal'>,
  input: string,
): Promise<InputFile> {
  sweepOrphans(); // what a job killed with -9 left in the temporary folder: a copy of stdin among them
  if (input !== '-') {
    const path = resolve(ctx.cwd, input);
    checkReadableFile(path, input);
    return {
      path,
      base: join(dirname(path), basename(path, extname(path))),
      fromStdin: false,
      cleanup: async () => undefined,
    };
  }
  const dir = join(tempDir(), tempName('stdin'));
  await mkdir(dir, { mode: 0o700 });
  const path = join(dir, 'stdin.csv');
  try {
    await pipeline(ctx.stdin, createWriteStream(path, { fd: openExclusive(path) }), { signal: ctx.signal });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw ctx.signal.aborted ? new Interrupted() : error;
  }
  return {
    path,
    base: join(ctx.cwd, 'stdin'),
    fromStdin: true,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
