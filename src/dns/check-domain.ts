// Every check of one sending domain: MX, SPF, DMARC, DKIM.
import type { Lookups } from './resolver.js';
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

async function checkMx(dns: Lookups, domain: string): Promise<Finding> {
  const mx = (await dns.mx(domain)).sort((a, b) => a.priority - b.priority);
  if (!mx.length)
    return {
      check: 'MX',
      status: 'fail',
      detail: 'no MX record: replies and bounces to the domain cannot be delivered',
      fix: `publish ${domain}. MX records of your mailbox provider (Google Workspace: MX 1 smtp.google.com.)`,
    };
  if (mx.length === 1 && (mx[0]!.exchange === '' || mx[0]!.exchange === '.'))
    return {
      check: 'MX',
      status: 'fail',
      detail: 'a null MX (RFC 7505): the domain says it receives no mail, so replies bounce',
      fix: `replace the null MX at ${domain} with your mailbox provider's MX records`,
    };
  return { check: 'MX', status: 'pass', detail: mx.map((r) => `${r.priority} ${r.exchange}`).join(', ') };
}

export async function checkDomain(dns: Lookups, domain: string, selectors: string[]): Promise<DomainReport> {
  const checks = [
    await checkMx(dns, domain),
    await checkSpf(dns, domain),
    await checkDmarc(dns, domain),
    await checkDkim(dns, domain, selectors),
  ];
  return { domain, ok: checks.every((c) => c.status !== 'fail'), checks };
}
