import { arg } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { blacklistDomains } from '../../api/resources/dnc.js';
import { domainProblem } from '../../io/email.js';

/** The deprecated endpoint takes 1 to 50 domains a call. */
export const blacklistBatch = 50;

export default defineVerb({
  // It adds the domains to the account's do-not-contact list.
  agent: { kind: 'write', idempotent: true },
  args: [arg.list('domain', { min: 1 })],
  description: 'Bare domain names only (no scheme or path), sent 50 a call as a comma-separated string.',
  examples: ['dnc blacklist-domains competitor.com --json'],
  async run(ctx, opts) {
    ctx.warn('blacklist-domains uses a deprecated endpoint; use `outreach dnc add <listId> <domain...>` instead');
    const domains = opts.args[0].map((d) => d.trim().toLowerCase());
    const bad = domains
      .map((d) => [d, /[/:@\s]/.test(d) ? 'not a bare domain name (no scheme, path or @)' : domainProblem(d)] as const)
      .filter(([, problem]) => problem);
    if (bad.length)
      throw new UsageError(
        `not a domain: ${bad.map(([d, p]) => `"${d}" (${p})`).join(', ')}`,
        'Example: outreach dnc blacklist-domains competitor.com',
      );
    const http = await ctx.http();
    const added: string[] = [];
    for (let i = 0; i < domains.length; i += blacklistBatch)
      added.push(...(await blacklistDomains(http, domains.slice(i, i + blacklistBatch))));
    return listResult(added, [{ header: 'DOMAIN', value: (d) => d }], { emptyMessage: 'nothing added' });
  },
});
