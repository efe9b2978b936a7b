import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { call } from '../../api/call.js';
import { eachDomain, knownDomains } from './each.js';
import { confirmed } from '../../cli/confirm.js';

export default defineVerb({
  agent: { kind: 'destructive', idempotent: true },
  exitCodes: [ExitCode.partial],
  args: [arg.list('domainId', { min: 1 })],
  description:
    'Moves each domain to deleted. While it is deleted, `outreach domains revoke ID` brings it back; later the service\n' +
    'removes it for good. Asks first on a terminal; --yes for scripts. An unknown id stops it before anything is sent\n' +
    '(exit 2); exit 1 when the service refused every domain, 3 when it refused some.',
  examples: ['domains delete dmActive01', 'domains delete dmActive01 dmOther02 --yes'],
  flags: { yes: flag.bool('do not ask for confirmation', { short: '-y' }) },
  async run(ctx, opts) {
    const ids = [...new Set(opts.args[0])];
    const http = await ctx.http();
    const known = await knownDomains(http, ids);
    const go = await confirmed(ctx, {
      yes: opts.yes,
      question: `Delete ${ids.map((id) => `${id} (${known.get(id)!.name ?? '?'})`).join(', ')}?`,
      refusal: `refusing to delete ${ids.length} domain(s) without --yes (no terminal to ask on)`,
      declined: 'Nothing deleted.',
    });
    if (!go) return;
    return eachDomain(
      ids,
      'deleted',
      async (id) => void (await call(http, domainsEndpoints.delete, { params: { id } })),
      (failed) => (failed < ids.length ? `Undo while deleted: outreach domains revoke ${ids.join(' ')}` : undefined),
    );
  },
});
