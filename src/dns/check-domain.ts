// Every check of one sending domain: MX, SPF, DMARC, DKIM.
import { DnsFailure, type Lookups } from './resolver.js';
import type { Finding } from './finding.js';
import { checkSpf } from './spf.js';
import { checkDmarc } from './dmarc.js';
import { checkDkim } from './dkim.js';

export interface DomainReport {
  domain: string;
  /** False when any check failed (a warning passes). */
  ok: boolean;
  checks: Finding[];
}

/** Where mail to a domain without MX goes: to its address, if it has one (RFC 5321 5.1), which is seldom a server
 * that takes mail (a website's); else nowhere. */
async function withoutMx(dns: Lookups, domain: string): Promise<string> {
  const nowhere = 'replies and bounces to the domain cannot be delivered';
  const address = await dns.addresses(domain).then(
    (found) => found[0],
    () => undefined, // not known: said as if there were none
  );
  return address === undefined
    ? nowhere
    : `mail to the domain goes to its address record (${address}, RFC 5321 5.1), seldom a server that takes mail: ` +
        'replies and bounces may be lost';
}

async function checkMx(dns: Lookups, domain: string): Promise<Finding> {
  const mx = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
  if (!mx.length)
    return {
      check: 'MX',
      status: 'fail',
      detail: `no MX record: ${await withoutMx(dns, domain)}`,
      fix: `publish ${domain}. MX records of your mailbox provider (Google Workspace: MX 1 smtp.google.com.)`,
    };
  if (mx.length === 1 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.'))
    return {
      check: 'MX',
      status: 'fail',
      detail: 'a null MX (RFC 7505): the domain says it receives no mail, so replies bounce',
      fix: `replace the null MX at ${domain} with your mailbox provider's MX records`,
    };
  // A null MX beside others: RFC 7505 3 says a domain that publishes one MUST NOT publish any other.
  if (mx.some((r) => r.exchange === '' || r.exchange === '.'))
    return {
      check: 'MX',
      status: 'fail',
      detail: 'a null MX (RFC 7505) beside other MX records: a receiver may take the domain to receive no mail',
      fix: `remove the null MX (MX 0 .) at ${domain}, keeping your mailbox provider's MX records`,
    };
  return { check: 'MX', status: 'pass', detail: mx.map((r) => `${r.priority} ${r.exchange}`).join(', ') };
}

/** A check whose lookup the server answered with an error (SERVFAIL, REFUSED), or that timed out, fails on its own; a
 * server that does not answer at all stops the whole run. */
async function guarded(check: Finding['check'], run: () => Promise<Finding>): Promise<Finding> {
  try {
    return await run();
  } catch (error) {
    return lookupFailed(check, ownFailure(error));
  }
}

/** A failure of this lookup alone; anything else (a server that does not answer at all) is thrown on. */
function ownFailure(error: unknown): DnsFailure {
  if (!(error instanceof DnsFailure) || error.unreachable) throw error;
  return error;
}

function lookupFailed(check: Finding['check'], error: DnsFailure): Finding {
  return {
    check,
    status: 'fail',
    detail: `the lookup of ${error.lookedUp} failed: ${error.code || 'no answer'}`,
    fix: `make the domain's name servers answer for ${error.lookedUp}`,
  };
}

/** A domain with one thing to say about it in DNS as a whole, instead of a finding per check. */
function failsWhole(domain: string, detail: string, fix: string): DomainReport {
  return { domain, ok: false, checks: [{ check: 'DNS', status: 'fail', detail, fix }] };
}

export async function checkDomain(dns: Lookups, domain: string, selectors: string[]): Promise<DomainReport> {
  let mx: Finding;
  try {
    mx = await checkMx(dns, domain);
  } catch (thrown) {
    const error = ownFailure(thrown);
    // Its name servers do not answer (the server answers others): said once, not a timeout per check, each of
    // which would wait as long again.
    if (error.timedOut)
      return failsWhole(
        domain,
        `the name servers of ${domain} did not answer (timed out); nothing else was looked up`,
        `check the NS records of ${domain} at its registrar, and that those name servers answer`,
      );
    mx = lookupFailed('MX', error);
  }
  // A name that does not exist has no records at all: one thing to say, not a record to publish per check. Said only
  // when a second question (its TXT) gets NXDOMAIN too: one answer may come from a name server out of step.
  if (dns.missing(domain)) await dns.txt(domain).catch(() => []);
  if (dns.missing(domain))
    return failsWhole(
      domain,
      `${domain} does not exist in DNS (NXDOMAIN)`,
      'check its spelling, or register it and publish its MX, SPF, DKIM and DMARC records',
    );
  const checks = [
    mx,
    await guarded('SPF', () => checkSpf(dns, domain)),
    await guarded('DMARC', () => checkDmarc(dns, domain)),
    await guarded('DKIM', () => checkDkim(dns, domain, selectors)),
  ];
  return { domain, ok: checks.every((c) => c.status !== 'fail'), checks };
}
