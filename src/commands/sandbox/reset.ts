import { rmSync } from 'node:fs';
import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { sandboxStatePath } from '../../sandbox/in-process.js';

export default defineVerb({
  examples: ['sandbox reset --state ./sandbox.json'],
  flags: { state: flag.text('reset this state file instead of the one --sandbox uses', { value: 'file' }) },
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
    // The next run lays the seed down afresh, dated from the clock at that moment.
    rmSync(path, { force: true });
    ctx.info(`Sandbox state reset: ${path} now starts from the seed data.`);
  },
});
