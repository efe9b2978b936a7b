import { rmSync } from 'node:fs';
import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { sandboxStatePath } from '../../sandbox/in-process.js';

export default defineVerb({
  usage: 'reset',
  summary: 'Restore the seed data of the --sandbox state (or of a --state file)',
  examples: ['sandbox reset', 'sandbox reset --state ./sandbox.json'],
  configure(cmd) {
    cmd.option('--state <file>', 'reset this state file instead of the one --sandbox uses');
  },
  schema: z.object({ args: z.tuple([]), state: z.string().optional() }),
  async run(ctx, opts) {
    const path = opts.state ?? sandboxStatePath(ctx.configDir);
    // The next run lays the seed down afresh, dated from the clock at that moment.
    rmSync(path, { force: true });
    ctx.info(`Sandbox state reset: ${path} now starts from the seed data.`);
  },
});
