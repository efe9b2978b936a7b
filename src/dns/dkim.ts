// DKIM (RFC 6376): the public keys at <selector>._domainkey.<domain>, for the selectors the user names and the common
// ones of the large providers. A key that is present, not revoked (empty p=) and at least 1024 bits passes.
import type { Lookups } from './resolver.js';
import type { Finding } from './finding.js';

/** Google Workspace, Microsoft 365, Mailchimp/Mandrill, Amazon SES-style, and frequent generic names. */
export const commonSelectors = ['google', 'selector1', 'selector2', 'k1', 'k2', 's1', 's2', 'default', 'dkim', 'mail'];

/** An RSA key's size from its base64 SubjectPublicKeyInfo: about 294 bytes for 2048 bits, 162 for 1024. */
function rsaBits(key: string): number {
  const bytes = Math.floor((key.replace(/\s+/g, '').length * 3) / 4);
  return bytes >= 550 ? 4096 : bytes >= 294 - 20 ? 2048 : bytes >= 162 - 10 ? 1024 : bytes * 6;
}

export async function checkDkim(dns: Lookups, domain: string, selectors: string[]): Promise<Finding> {
  const check = 'DKIM';
  const names = [...new Set([...selectors, ...commonSelectors])];
  const found: Array<{ selector: string; record: string }> = [];
  for (const selector of names)
    for (const record of await dns.txt(`${selector}._domainkey.${domain}`))
      if (/(^|;)\s*p\s*=/i.test(record)) found.push({ selector, record });
  if (!found.length)
    return {
      check,
      status: 'fail',
      detail: `no DKIM key at the selectors ${names.join(', ')}`,
      fix:
        `publish the key your mail provider gives you at <selector>._domainkey.${domain} ` +
        '(TXT "v=DKIM1; k=rsa; p=<public key>"), or name its selector with --selector',
    };
  const problems: string[] = [];
  const good: string[] = [];
  for (const { selector, record } of found) {
    const key = /(?:^|;)\s*p\s*=\s*([^;]*)/i.exec(record)?.[1]?.trim() ?? '';
    const type = (/(?:^|;)\s*k\s*=\s*([^;]*)/i.exec(record)?.[1] ?? 'rsa').trim().toLowerCase();
    if (!key) problems.push(`${selector}: the key is revoked (empty p=)`);
    else if (type === 'rsa' && rsaBits(key) < 1024) problems.push(`${selector}: an RSA key under 1024 bits`);
    else good.push(type === 'rsa' ? `${selector} (RSA ${rsaBits(key)})` : `${selector} (${type})`);
  }
  if (!good.length)
    return {
      check,
      status: 'fail',
      detail: problems.join('; '),
      fix: `publish a current 2048-bit key from your mail provider at <selector>._domainkey.${domain}`,
    };
  const weak = good.filter((g) => g.includes('RSA 1024'));
  if (weak.length || problems.length)
    return {
      check,
      status: 'warn',
      detail: [`keys at ${good.join(', ')}`, ...problems].join('; '),
      fix: weak.length
        ? 'rotate the 1024-bit keys to 2048 bits (Google and Yahoo expect 2048)'
        : 'remove revoked selectors',
    };
  return { check, status: 'pass', detail: `keys at ${good.join(', ')}` };
}
