import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { UsageError } from '../../errors.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { call } from '../../api/call.js';
import { eachDomain, knownDomains } from './each.js';

export default defineVerb({
  agent: { kind: 'destructive', idempotent: true },
  exitCodes: [ExitCode.partial],
  args: [arg.list('domainId', { min: 1 })],
  description:
    'Brings deleted domains back to active. Each domain is looked up first: revoke only works on a deleted domain,\n' +
    'so one in another state stops the command before anything is sent (exit 2). Exit 3 when the service refused\n' +
    'some of several.',
  examples: ['domains revoke dmDeleted2 dmDeleted3 --json'],
  async run(ctx, opts) {
    const ids = [...new Set(opts.args[0])];
    const http = await ctx.http();
    const known = await knownDomains(http, ids);
    const problems = ids.flatMap((id) => {
      const domain = known.get(id)!;
      return domain.status === 'deleted' ? [] : [`${id} (${domain.name ?? '?'}) is ${domain.status}`];
    });
    if (problems.length)
      throw new UsageError(
        `revoke only works on deleted domains: ${problems.join('; ')}`,
        'Nothing was sent. See the states with `outreach domains list`.',
      );
    return eachDomain(
      ids,
      'revoked',
      async (id) => void (await call(http, domainsEndpoints.revoke, { params: { id } })),
    );
  },
});
