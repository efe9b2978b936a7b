import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { listResult } from '../../cli/result.js';
import { domainToASCII } from 'node:url';
import { UsageError } from '../../errors.js';
import { call } from '../../api/call.js';
import { domainsEndpoints } from '../../api/contract/domains.js';
import { DnsFailure, defaultTryTimeoutMs, lookups, resolverAddress } from '../../dns/resolver.js';
import { checkDomain, type DomainReport } from '../../dns/check-domain.js';
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

const selectorHint =
  "A message's DKIM-Signature header names it: s=s2024 is --selector s2024 (every domain), d=acme.example with it " +
  '--selector s2024._domainkey.acme.example (that domain only).';

/** A --selector: a selector for every domain checked, or one domain's, named by its record (`s2024._domainkey.acme.example`). */
interface NamedSelector {
  selector: string;
  /** The domain it is for, in the form DNS holds it (xn--); undefined: every domain. */
  domain?: string;
}

/** A selector as --selector takes it: DNS labels of letters, digits, - and _, alone or as its record's name. */
function parseSelector(given: string): NamedSelector {
  const [selector = '', , domain] = given.split(/\._domainkey(\.|$)/i);
  if (!selector || (selector !== given && !domain))
    throw new UsageError(
      `--selector ${given}: give the selector (s2024), or its record's name with the domain`,
      selectorHint,
    );
  const labels = selector.split('.');
  if (!labels.every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label)))
    throw new UsageError(
      `--selector ${given}: a selector is DNS labels (letters, digits, - and _) joined by single dots`,
      selectorHint,
    );
  if (domain === undefined) return { selector };
  const name = domain.toLowerCase().replace(/\.$/, '');
  const problem = domainProblem(name);
  if (problem) throw new UsageError(`--selector ${given}: ${problem}`, selectorHint);
  return { selector, domain: domainToASCII(name) || name };
}

/** The selectors to look up at `domain`: those for every domain, and its own. */
const selectorsFor = (named: NamedSelector[], domain: string) =>
  named.filter((n) => n.domain === undefined || n.domain === domain).map((n) => n.selector);

/** The domains named on the command line, checked, lower-case, without a final dot. */
function givenDomains(args: string[]): string[] {
  const given = args.map((d) => d.trim().toLowerCase().replace(/\.$/, ''));
  for (const domain of given) {
    const problem = domainProblem(domain);
    // The problem names the domain ("invalid domain "x": no top-level domain"), save the empty one.
    if (problem)
      throw new UsageError(
        problem === 'empty domain' ? 'DOMAIN: empty; give a domain name' : problem,
        'Give each domain as a bare name: acme.com (no scheme, no path), or none to check every sending domain.',
      );
  }
  return given;
}

/** A domain the run did not get to check: the DNS server stopped answering. */
function notChecked(domain: string, failure: DnsFailure): DomainReport {
  const detail = `not checked: the DNS server stopped answering (${failure.code || 'no answer'} at ${failure.lookedUp})`;
  return {
    domain,
    ok: false,
    checks: [{ check: 'DNS', status: 'fail', detail, fix: 'check it again once the server answers' }],
  };
}

export default defineVerb({
  agent: { kind: 'read' },
  exitCodes: [ExitCode.partial],
  args: [arg.list('domain')],
  description: [
    'Looks up, for each domain (default: every active or provisioning sending domain of the account):',
    '',
    'MX: at least one, and no null MX (alone or beside others); without one, mail goes to the address record (RFC',
    '5321 5.1), said with the address.',
    '',
    'SPF: exactly one record, beginning with v=spf1 (not a space), every term one receivers read (a typo, a bad',
    'address or prefix, a: with no domain or a name that is none such as localhost, a macro they do not expand: a',
    'permanent error; terms after all are ignored), ending in ~all or -all (not +all, ?all or nothing; through',
    'redirect= when it has no',
    'all), no /0 prefix (ip4:0.0.0.0/0, ip6:::/0, a/0), no include= written for include: (ignored by receivers), no include of a',
    'record that passes every server or that receivers cannot read, and at most 10 DNS lookups counted through every',
    'include and redirect (each must have one SPF record).',
    'An a, mx or exists term whose name has no record (exists: no A record) is a void lookup: one or two warn, more',
    'fail (RFC 7208 4.6.4); an mx term of a name with more than 10 MX records fails; a ptr term warns (RFC 7208 5.5',
    'says not to use it).',
    '',
    "DMARC: one record at _dmarc.<domain> (else the closest parent's, and its sp=), v=DMARC1 exactly and first, tags separated",
    'by ;, none written twice, with a policy, and an sp= (if any) that is one; p=none, no rua=mailto: or strict',
    'alignment warn, and so does a rua= address at another domain that has not published',
    '<domain>._report._dmarc.<its domain> (RFC 7489 7.1).',
    '',
    `DKIM: a key at the selectors of --selector and the common ones (${commonSelectors.join(', ')}): tags in lower`,
    'case, none twice, v=DKIM1 (first), s= with email, h= with sha256, k= rsa or ed25519, present, base64 alone, not',
    'revoked, not testing (t=y), RSA of at least 1024 bits (under 2048 warns); Ed25519 keys alone warn. Any problem',
    'at a selector you named fails: your mail is signed with it.',
    '',
    'For each problem it prints the record to publish or the change to make. A table on a terminal; --json gives',
    'one object per check: domain, check, status (pass, warn, fail), detail, and where there is one, fix (the record',
    'to publish, or the change to make) and record (the record as it is published now, the one the check read).',
    'A domain whose name servers do not answer fails once (DNS), its other records not looked up. Exit 3 when any',
    'domain fails a check (a warning passes); 1 when the DNS server does not answer at all, or stops answering midway (the',
    'domains it answered for are reported, the rest as not checked). --resolver HOST:PORT asks that DNS server',
    'instead of the system resolver (an IP address, or a name the system finds: localhost:5353). A selector you name with',
    '--selector must hold a key: none there fails DKIM. --selector s2024 is looked up at every domain checked;',
    '--selector s2024._domainkey.acme.example (its record) at acme.example only, for domains whose mail is signed',
    'with selectors of their own. A lookup waits --dns-timeout seconds for its answer, then asks',
    'once more (default 2, at most 5).',
  ].join('\n'),
  examples: [
    'domains check acme.example --selector s2024 --json',
    'domains check acme.example beta.example --selector s1._domainkey.acme.example --selector k2._domainkey.beta.example',
    'domains check acme.example --resolver 1.1.1.1:53',
  ],
  flags: {
    selector: flag.list(
      "a DKIM selector to look up besides the common ones: at every domain, or as its record's name " +
        '(s1._domainkey.acme.example) at that domain only',
      { value: 'name' },
    ),
    resolver: flag.text('the DNS server to ask, as HOST:PORT (default: $OUTREACH_RESOLVER, else the system resolver)', {
      value: 'host:port',
    }),
    dnsTimeout: flag.seconds('how long one DNS lookup waits for its answer before asking again (once)', {
      default: defaultTryTimeoutMs / 1000,
      // Node 20's c-ares stops a try at about 6 s whatever it is told: a longer wait would not be one.
      max: 5,
    }),
  },
  async run(ctx, opts) {
    if (opts.resolver === '')
      throw new UsageError(
        '--resolver: empty; give the DNS server as HOST:PORT (127.0.0.1:5353, [::1]:53, localhost:5353)',
        'Leave --resolver out to ask the system resolver.',
      );
    const fromEnv = ctx.env.OUTREACH_RESOLVER;
    const resolver =
      opts.resolver !== undefined
        ? await resolverAddress(opts.resolver)
        : fromEnv
          ? await resolverAddress(fromEnv, 'OUTREACH_RESOLVER=')
          : undefined;
    const named = opts.selector.map(parseSelector);
    const given = givenDomains(opts.args[0]);
    // DNS holds an international name in its ASCII form (xn--): that is what is looked up, and what a fix publishes.
    const domains = [...new Set((given.length ? given : await sendingDomains(ctx)).map((d) => domainToASCII(d) || d))];
    const unchecked = named.find((n) => n.domain !== undefined && !domains.includes(n.domain));
    if (unchecked)
      throw new UsageError(
        `--selector ${unchecked.selector}._domainkey.${unchecked.domain}: ${unchecked.domain} is not among the domains checked`,
        `Check it too: outreach domains check ${[...domains, unchecked.domain].join(' ')}`,
      );
    const dns = lookups(resolver, opts.dnsTimeout);
    let stopped: DnsFailure | undefined;
    const reports = await ctx.job(async (job) => {
      const done: DomainReport[] = [];
      for (const domain of domains) {
        job.emit({ type: 'progress', text: `checking ${domain} at ${dns.from}` });
        try {
          if (!stopped) done.push(await checkDomain(dns, domain, selectorsFor(named, domain)));
          else done.push(notChecked(domain, stopped));
        } catch (error) {
          // A server that stops answering midway: what it answered is still reported, the rest said unchecked.
          if (!(error instanceof DnsFailure) || !dns.answered()) throw error;
          stopped = error;
          done.push(notChecked(domain, error));
        }
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
        { header: 'STATUS', value: (r) => r.status, shown: (r) => shownStatus[r.status] },
        { header: 'DETAIL', value: (r) => r.detail },
        // Said under a terminal's table ("To fix:"); columns of their own in TSV and CSV.
        { header: 'FIX', value: (r) => r.fix ?? '', dataOnly: true },
        { header: 'RECORD', value: (r) => r.record ?? '', dataOnly: true },
      ],
      { raw: (r) => r },
      {
        said: fixes.length ? `To fix:\n${fixes.join('\n')}` : undefined,
        ...(stopped
          ? {
              exitCode: ExitCode.failure,
              failing: `the DNS server at ${dns.from} stopped answering: ${failing.length} of ${reports.length} not checked or failing`,
              hint: stopped.hint,
            }
          : failing.length
            ? {
                exitCode: ExitCode.partial,
                failing:
                  `${failing.length} of ${reports.length} domain${reports.length === 1 ? '' : 's'} ` +
                  `${failing.length === 1 ? 'fails' : 'fail'} a check: ` +
                  failing.map((r) => r.domain).join(', '),
                hint: 'Publish what each fix names, then check again (DNS changes can take up to the record TTL to show).',
              }
            : {}),
      },
    );
  },
});
