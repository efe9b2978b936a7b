import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { sandboxStatePath } from '../../sandbox/in-process.js';
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
    return /^\s*\{\s*"version"\s*:\s*\d/.test(head.subarray(0, read).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

export default defineVerb({
  examples: ['sandbox reset --state ./sandbox.json'],
  flags: { state: flag.text('reset this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
    if (opts.state && looksLikeState(path) === false)
      throw new UsageError(
        `--state ${opts.state}: this is not a sandbox state (it does not begin as one); nothing was removed`,
        'Give the file that `sandbox start --state` writes.',
      );
    // The next run lays the seed down afresh, dated from the clock at that moment.
    rmSync(path, { force: true });
    // Its prospects live in files beside it.
    let names: string[] = [];
    try {
      names = readdirSync(dirname(path));
    } catch {
      /* no folder: nothing beside it */
    }
    for (const name of names) if (isCompanionFile(path, name)) rmSync(join(dirname(path), name), { force: true });
    ctx.info(`Sandbox state reset: ${path} now starts from the seed data.`);
  },
});
