import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { sandboxStatePath } from '../../sandbox/in-process.js';
import { isCompanionFile } from '../../sandbox/state-file.js';

export default defineVerb({
  examples: ['sandbox reset --state ./sandbox.json'],
  flags: { state: flag.text('reset this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
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
