import { doneResult } from '../../cli/result.js';
import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  args: [arg.text('name')],
  examples: ['profiles remove old-agency'],
  async run(ctx, { args: [name] }) {
    const config = await ctx.config();
    if (!config.removeProfile(name))
      throw new UsageError(`no profile named "${name}"`, 'See `outreach profiles list`.');
    return doneResult(`Removed profile "${name}".`);
  },
});
