import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { listResult } from '../../cli/result.js';
import { UsageError } from '../../errors.js';
import { call } from '../../api/call.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { lookups, resolverAddress } from '../../dns/resolver.js';
import { checkDomain } from '../../dns/check-domain.js';
import { commonSelectors } from '../../dns/dkim.js';
import type { Finding } from '../../dns/finding.js';
import { domainProblem } from '../../io/email.js';

type Row = Finding & { domain: string };

const shownStatus = { pass: '✓ pass', warn: '! warn', fail: '✗ fail' } as const;

/** The account's sending domains: those active or being provisioned (not deleted, failed or expired). */
async function sendingDomains(ctx: CommandContext): Promise<string[]> {
  const { items } = await call(await ctx.http(), domainsEndpoints.list, { query: { order: 'Asc' } });
  const names = items
    .filter((d) => d.status === 'active' || d.status === 'inProgress')
    .map((d) => d.name)
    .filter((name): name is string => typeof name === 'string' && !domainProblem(name));
  if (!names.length)
    throw new UsageError(
      'the account has no active sending domain to check',
      'Name domains: outreach domains check acme.example',
    );
  return names;
}

export default defineVerb({
  agent: { kind: 'read' },
  exitCodes: [ExitCode.partial],
  args: [arg.list('domain')],
  description: [
    'Looks up, for each domain (default: every active or provisioning sending domain of the account):',
    '  MX     at least one, not a null MX;',
    '  SPF    exactly one record, ending in ~all or -all (not +all, ?all or nothing; through redirect= when it has',
    '         no all), no include of a record ending in +all, and at most 10 DNS lookups counted through every',
    '         include and redirect (each must have one SPF record);',
    "  DMARC  one record at _dmarc.<domain> (else the closest parent's, and its sp=), v=DMARC1 exactly, tags",
    '         separated by ;, with a policy; p=none, no rua=mailto: or strict alignment warn;',
    `  DKIM   a key at the selectors of --selector and the common ones (${commonSelectors.join(', ')}):`,
    '         tags in lower case, present, not revoked, not testing (t=y), RSA of at least 1024 bits (under 2048',
    '         warns).',
    'For each problem it prints the record to publish or the change to make. A table on a terminal; --json gives',
    'one object per check: domain, check, status (pass, warn, fail), detail, fix, record. Exit 3 when any domain',
    'fails a check (a warning passes); 1 when the DNS server does not answer at all.',
    '--resolver HOST:PORT asks that DNS server instead of the system resolver.',
  ].join('\n'),
  examples: ['domains check acme.example --selector s2024 --json', 'domains check acme.example --resolver 1.1.1.1:53'],
  flags: {
    selector: flag.list('a DKIM selector to look up besides the common ones', { value: 'name' }),
    resolver: flag.text('the DNS server to ask, as IP:PORT (default: $OUTREACH_RESOLVER, else the system resolver)', {
      value: 'host:port',
    }),
  },
  async run(ctx, opts) {
    const asked = opts.resolver ?? ctx.env.OUTREACH_RESOLVER;
    const resolver = asked === undefined || asked === '' ? undefined : resolverAddress(asked);
    for (const selector of opts.selector)
      if (!/^[a-z0-9](?:[a-z0-9._-]{0,61}[a-z0-9])?$/i.test(selector))
        throw new UsageError(`--selector ${selector}: a selector is a DNS label (letters, digits, -, _ and .)`);
    const given = opts.args[0].map((d) => d.trim().toLowerCase().replace(/\.$/, ''));
    for (const domain of given) {
      const problem = domainProblem(domain);
      if (problem) throw new UsageError(`${domain}: not a domain name: ${problem}`);
    }
    const domains = given.length ? [...new Set(given)] : await sendingDomains(ctx);
    const dns = lookups(resolver);
    const reports = await ctx.job(async (job) => {
      const done = [];
      for (const domain of domains) {
        job.emit({ type: 'progress', text: `checking ${domain} at ${dns.from}` });
        done.push(await checkDomain(dns, domain, opts.selector));
      }
      return done;
    });
    const rows: Row[] = reports.flatMap((r) => r.checks.map((c) => ({ domain: r.domain, ...c })));
    const failing = reports.filter((r) => !r.ok);
    const fixes = rows.filter((r) => r.fix).map((r) => `  ${r.domain} ${r.check}: ${r.fix}`);
    return listResult(
      rows,
      [
        { header: 'DOMAIN', value: (r) => r.domain, key: true },
        { header: 'CHECK', value: (r) => r.check },
        { header: 'RESULT', value: (r) => r.status, shown: (r) => shownStatus[r.status] },
        { header: 'DETAIL', value: (r) => r.detail },
      ],
      { raw: (r) => r },
      {
        said: fixes.length ? `To fix:\n${fixes.join('\n')}` : undefined,
        ...(failing.length
          ? {
              exitCode: ExitCode.partial,
              failing:
                `${failing.length} of ${reports.length} domain${reports.length === 1 ? '' : 's'} ` +
                `${failing.length === 1 ? 'fails' : 'fail'} a check: ` +
                failing.map((r) => r.domain).join(', '),
              hint: 'Publish the records above, then check again (DNS changes can take up to the record TTL to show).',
            }
          : {}),
      },
    );
  },
});
