import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { profileName } from '../../config/target.js';
import { doneResult } from '../../cli/result.js';

export default defineVerb({
  agent: { kind: 'leftOut', why: 'it forgets a stored key: keys are managed by a person, not an agent' },
  examples: ['auth logout -p staging'],
  async run(ctx) {
    const config = await ctx.config();
    const name = profileName(ctx.flags, ctx.env, config);
    const profile = config.profile(name);
    if (!profile?.apiKey) throw new UsageError(`profile "${name}" has no stored key`, 'See `outreach profiles list`.');
    const { apiKey: _removed, ...rest } = profile;
    config.saveProfile(name, rest);
    return doneResult(
      `Logged out: the key of profile "${name}" was removed from ${config.path}.`,
      undefined,
      ctx.env.OUTREACH_API_KEY
        ? 'OUTREACH_API_KEY is still set in this environment and will keep being used.'
        : undefined,
    );
  },
});
