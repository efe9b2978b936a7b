import { doneResult } from '../../cli/result.js';
import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  agent: {
    kind: 'leftOut',
    why: 'it changes the account every later command uses; the server keeps the profile it was started with',
  },
  args: [arg.text('name')],
  examples: ['profiles use default'],
  async run(ctx, { args: [name] }) {
    const config = await ctx.config();
    if (!config.profile(name))
      throw new UsageError(
        `no profile named "${name}"`,
        'See `outreach profiles list`, or create it with `outreach auth login -p NAME`.',
      );
    config.useProfile(name);
    return doneResult(`Now using profile "${name}".`);
  },
});
