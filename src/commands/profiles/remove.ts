import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  name: 'remove',
  args: [arg.text('name')],
  summary: 'Delete a profile and its stored key',
  examples: ['profiles remove staging'],
  async run(ctx, { args: [name] }) {
    const config = await ctx.config();
    if (!config.removeProfile(name))
      throw new UsageError(`no profile named "${name}"`, 'See `outreach profiles list`.');
    ctx.info(`Removed profile "${name}".`);
  },
});
