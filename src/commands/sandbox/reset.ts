import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { legacySandboxStatePath, sandboxStatePath } from '../../sandbox/in-process.js';
import { isCompanionFile } from '../../sandbox/state-file.js';
import { UsageError } from '../../errors.js';

/** Whether the file at `path` begins as a sandbox state does (`{"version":N,`): a reset removes nothing else. Read
 * from its first bytes only, so a state cut short (the reason to reset) still counts. */
function looksLikeState(path: string): boolean | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    const text = head.subarray(0, read).toString('latin1');
    return text.startsWith('SQLite format 3\0') || /^\s*\{\s*"version"\s*:\s*\d/.test(text);
  } finally {
    closeSync(fd);
  }
}

export default defineVerb({
  examples: ['sandbox reset --state ./sandbox.db'],
  flags: { state: flag.text('reset this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
    if (opts.state && looksLikeState(path) === false)
      throw new UsageError(
        `--state ${opts.state}: this is not a sandbox state (it does not begin as one); nothing was removed`,
        'Give the file that `sandbox start --state` writes.',
      );
    // The next run lays the seed down afresh, dated from the clock at that moment. A database has its write-ahead log
    // beside it; a JSON state of older versions its prospect files (and --sandbox's is imported unless it goes too).
    const paths = opts.state ? [path] : [path, legacySandboxStatePath(ctx.configDir)];
    for (const state of paths) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(state + suffix, { force: true });
      let names: string[] = [];
      try {
        names = readdirSync(dirname(state));
      } catch {
        /* no folder: nothing beside it */
      }
      for (const name of names) if (isCompanionFile(state, name)) rmSync(join(dirname(state), name), { force: true });
    }
    ctx.info(`Sandbox state reset: ${path} now starts from the seed data.`);
  },
});
