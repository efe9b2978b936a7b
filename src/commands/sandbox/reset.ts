import { doneResult } from '../../cli/result.js';
import { closeSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { legacySandboxStatePath, sandboxStatePath } from '../../sandbox/in-process.js';
import { isCompanionFile } from '../../sandbox/state-file.js';
import { InputFileError, UsageError } from '../../errors.js';

/** What the file at `path` begins as: an SQLite database, a JSON state (`{"version":N,`), something else, or nothing.
 * Read from its first bytes only, so a state cut short (the reason to reset) still counts. */
function kindOf(path: string): 'sqlite' | 'json' | 'other' | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const head = Buffer.alloc(64);
    const text = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('latin1');
    if (text.startsWith('SQLite format 3\0')) return 'sqlite';
    return /^\s*\{\s*"version"\s*:\s*\d/.test(text) ? 'json' : 'other';
  } finally {
    closeSync(fd);
  }
}

/** Removes a state file of an older version (JSON) and what lies beside it. */
function removeJsonState(state: string): void {
  rmSync(state, { force: true });
  let names: string[] = [];
  try {
    names = readdirSync(dirname(state));
  } catch {
    /* no folder: nothing beside it */
  }
  for (const name of names) if (isCompanionFile(state, name)) rmSync(join(dirname(state), name), { force: true });
}

/** Empties a database state and lays the seed down again, in one transaction: a `sandbox start --state` serving it,
 * and `--sandbox` commands beside it, see the seed on their next request. A database that cannot be opened (the
 * reason to reset) is removed with its log. */
async function resetDatabase(path: string, clock: { now(): number; sleep(ms: number): Promise<void> }): Promise<void> {
  const [{ openSandboxDb }, { Sandbox }] = await Promise.all([
    import('../../sandbox/open-state.js'),
    import('../../sandbox/server.js'),
  ]);
  let db: ReturnType<typeof openSandboxDb>;
  try {
    db = openSandboxDb(path);
  } catch (error) {
    if (error instanceof InputFileError && /not a sandbox state/.test(error.message))
      throw new UsageError(`--state ${path}: ${error.message.slice(path.length + 2)}`, error.hint);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    return;
  }
  try {
    const sandbox = new Sandbox({ key: 'reset-only', clock, db });
    sandbox.store.transaction(() => sandbox.reset());
  } finally {
    db.close();
  }
}

export default defineVerb({
  agent: { kind: 'destructive', idempotent: true, local: true },
  description:
    'Empties the state and lays the seed data down again, dated from now, in one transaction: a `sandbox start\n' +
    '--state` serving the same file sees the seed on its next request. A state of an older version (JSON) is removed.',
  examples: ['sandbox reset --state ./sandbox.db'],
  flags: { state: flag.text('reset this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
    const kind = kindOf(path);
    if (opts.state && kind === 'other')
      throw new UsageError(
        `--state ${opts.state}: this is not a sandbox state (it does not begin as one); nothing was removed`,
        'Give the file that `sandbox start --state` writes.',
      );
    if (kind === 'sqlite') await resetDatabase(path, ctx.clock);
    else if (kind === 'json') removeJsonState(path);
    // --sandbox's JSON state of older versions would be imported on the next run unless it goes too.
    if (!opts.state) removeJsonState(legacySandboxStatePath(ctx.configDir));
    return doneResult(`Sandbox state reset: ${path} now starts from the seed data.`, { reset: true, state: path });
  },
});
