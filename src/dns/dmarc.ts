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

const dmarcRecords = async (dns: Lookups, name: string) =>
  (await dns.txt(name)).filter((r) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(r.trim()));

/** The records at _dmarc.<domain>, or, when it has none, at the closest parent domain that has some (the
 * organisational domain's record covers its subdomains, RFC 7489 6.6.3; without a public-suffix list, each parent of
 * two labels or more is tried). */
async function findRecords(dns: Lookups, domain: string): Promise<{ name: string; records: string[]; from?: string }> {
  const name = `_dmarc.${domain}`;
  const own = await dmarcRecords(dns, name);
  if (own.length) return { name, records: own };
  const labels = domain.split('.');
  for (let i = 1; i <= labels.length - 2; i++) {
    const parent = labels.slice(i).join('.');
    const records = await dmarcRecords(dns, `_dmarc.${parent}`);
    if (records.length) return { name, records, from: parent };
  }
  return { name, records: [] };
}

export async function checkDmarc(dns: Lookups, domain: string): Promise<Finding> {
  const { name, records, from } = await findRecords(dns, domain);
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
  // Under a parent's record, its subdomain policy (sp=) applies when it has one.
  const policy = ((from && t.get('sp')) || t.get('p') || '').toLowerCase();
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
  const inherited = from ? ` (the record of ${from})` : '';
  if (!warnings.length)
    return { check, status: 'pass', detail: `p=${policy}, reports to ${rua}, ${alignment}${inherited}`, record };
  return {
    check,
    status: 'warn',
    detail: `p=${policy}${inherited}; ${warnings.map(([what]) => what).join('; ')}`,
    fix: warnings.map(([, how]) => how).join('; '),
    record,
  };
}
