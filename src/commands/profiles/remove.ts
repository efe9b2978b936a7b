import { doneResult } from '../../cli/result.js';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { confirmed } from '../../cli/confirm.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  agent: { kind: 'leftOut', why: 'it forgets a stored key: keys are managed by a person, not an agent' },
  args: [arg.text('name')],
  description: 'Forgets the profile and its stored key. Asks first on a terminal; --yes for scripts.',
  examples: ['profiles remove old-agency', 'profiles remove old-agency --yes'],
  flags: { yes: flag.bool('do not ask for confirmation', { short: '-y' }) },
  async run(ctx, { args: [name], yes }) {
    const config = await ctx.config();
    const profile = config.profile(name);
    if (!profile) throw new UsageError(`no profile named "${name}"`, 'See `outreach profiles list`.');
    const go = await confirmed(ctx, {
      yes,
      question: `Remove profile "${name}"${profile.apiKey ? ' and its stored key' : ''}?`,
      refusal: `refusing to remove profile "${name}" without --yes (no terminal to ask on)`,
      declined: 'Nothing removed.',
    });
    if (!go) return;
    config.removeProfile(name);
    return doneResult(`Removed profile "${name}".`);
  },
});
