// DMARC (RFC 7489): one record at _dmarc.<domain>, its policy, where aggregate reports go, and its alignment modes.
import type { Lookups } from './resolver.js';
import type { Finding } from './finding.js';

/** The tags of a DMARC record: "v=DMARC1; p=none; rua=mailto:x" -> {v, p, rua}. */
function tags(record: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) found.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  return found;
}

export async function checkDmarc(dns: Lookups, domain: string): Promise<Finding> {
  const name = `_dmarc.${domain}`;
  const records = (await dns.txt(name)).filter((r) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(r.trim()));
  const check = 'DMARC';
  const suggested =
    `publish ${name}. TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain}" ` +
    '(then p=quarantine once the reports are clean)';
  if (!records.length)
    return {
      check,
      status: 'fail',
      detail: 'no DMARC record: Google and Yahoo refuse bulk mail without one',
      fix: suggested,
    };
  if (records.length > 1)
    return {
      check,
      status: 'fail',
      detail: `${records.length} DMARC records: receivers ignore them all (RFC 7489 6.6.3)`,
      fix: `keep one TXT record at ${name}`,
    };
  const record = records[0]!;
  const t = tags(record);
  const policy = (t.get('p') ?? '').toLowerCase();
  if (!['none', 'quarantine', 'reject'].includes(policy))
    return {
      check,
      status: 'fail',
      detail: policy ? `policy p=${policy} is not none, quarantine or reject` : 'no policy (p=): the record is void',
      fix: suggested,
      record,
    };
  const warnings: Array<[string, string]> = [];
  if (policy === 'none')
    warnings.push([
      'p=none: monitoring only, mail spoofing the domain is still delivered',
      'move to p=quarantine once the aggregate reports show only your own senders',
    ]);
  const rua = t.get('rua');
  if (!rua || !/mailto:/i.test(rua))
    warnings.push([
      'no rua=mailto: address: nobody receives the aggregate reports',
      `add rua=mailto:dmarc-reports@${domain}`,
    ]);
  const strict = ['adkim', 'aspf'].filter((tag) => (t.get(tag) ?? 'r').toLowerCase() === 's');
  if (strict.length)
    warnings.push([
      `strict alignment (${strict.map((tag) => `${tag}=s`).join(', ')}): mail sent through a provider's own subdomain fails it`,
      `use relaxed alignment (remove ${strict.join(' and ')}) unless every sender signs and bounces with ${domain} itself`,
    ]);
  const alignment = `alignment ${strict.length ? 'strict' : 'relaxed'}`;
  if (!warnings.length)
    return { check, status: 'pass', detail: `p=${policy}, reports to ${rua}, ${alignment}`, record };
  return {
    check,
    status: 'warn',
    detail: `p=${policy}; ${warnings.map(([what]) => what).join('; ')}`,
    fix: warnings.map(([, how]) => how).join('; '),
    record,
  };
}
