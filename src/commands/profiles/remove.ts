import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  usage: 'remove <name>',
  summary: 'Delete a profile and its stored key',
  examples: ['profiles remove staging'],
  schema: z.object({ args: z.tuple([z.string().min(1)]) }),
  async run(ctx, { args: [name] }) {
    const config = await ctx.config();
    if (!config.removeProfile(name))
      throw new UsageError(`no profile named "${name}"`, 'See `outreach profiles list`.');
    ctx.info(`Removed profile "${name}".`);
  },
});
