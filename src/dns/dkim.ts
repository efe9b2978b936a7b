// DKIM (RFC 6376): the public keys at <selector>._domainkey.<domain>, for the selectors the user names and the common
// ones of the large providers. A key that is present, not revoked (empty p=) and at least 1024 bits passes.
import { createPublicKey } from 'node:crypto';
import { DnsFailure, type Lookups } from './resolver.js';
import type { Finding } from './finding.js';

/** Google Workspace, Microsoft 365, Mailchimp/Mandrill, Amazon SES-style, and frequent generic names. */
export const commonSelectors = ['google', 'selector1', 'selector2', 'k1', 'k2', 's1', 's2', 'default', 'dkim', 'mail'];

/** An RSA key's size in bits, read from the key itself (SubjectPublicKeyInfo, or a bare PKCS#1 key, as both are
 * published); undefined when it is not a key. */
function rsaBits(key: string): number | undefined {
  const der = Buffer.from(key.replace(/\s+/g, ''), 'base64');
  for (const type of ['spki', 'pkcs1'] as const)
    try {
      return createPublicKey({ key: der, format: 'der', type }).asymmetricKeyDetails?.modulusLength;
    } catch {
      // the other format, then none
    }
  return undefined;
}

export async function checkDkim(dns: Lookups, domain: string, selectors: string[]): Promise<Finding> {
  const check = 'DKIM';
  const names = [...new Set([...selectors, ...commonSelectors])];
  const found: Array<{ selector: string; record: string }> = [];
  const unanswered: string[] = [];
  for (const selector of names) {
    let records: string[];
    try {
      records = await dns.txt(`${selector}._domainkey.${domain}`);
    } catch (error) {
      // A common name the user did not ask for, answered with an error (SERVFAIL): it says nothing about the keys.
      if (!(error instanceof DnsFailure) || error.unreachable || selectors.includes(selector)) throw error;
      unanswered.push(selector);
      continue;
    }
    for (const record of records) if (/(^|;)\s*p\s*=/i.test(record)) found.push({ selector, record });
  }
  if (!found.length)
    return {
      check,
      status: 'fail',
      detail:
        `no DKIM key at the selectors ${names.join(', ')}` +
        (unanswered.length ? ` (${unanswered.join(', ')} answered with an error)` : ''),
      fix:
        `publish the key your mail provider gives you at <selector>._domainkey.${domain} ` +
        '(TXT "v=DKIM1; k=rsa; p=<public key>"), or name its selector with --selector',
    };
  const problems: string[] = [];
  const good: string[] = [];
  for (const { selector, record } of found) {
    const key = /(?:^|;)\s*p\s*=\s*([^;]*)/i.exec(record)?.[1]?.trim() ?? '';
    const type = (/(?:^|;)\s*k\s*=\s*([^;]*)/i.exec(record)?.[1] ?? 'rsa').trim().toLowerCase();
    const bits = type === 'rsa' && key ? rsaBits(key) : undefined;
    if (!key) problems.push(`${selector}: the key is revoked (empty p=)`);
    else if (type === 'rsa' && bits === undefined) problems.push(`${selector}: p= is not an RSA public key`);
    else if (bits !== undefined && bits < 1024) problems.push(`${selector}: an RSA key of ${bits} bits (under 1024)`);
    else good.push(bits !== undefined ? `${selector} (RSA ${bits})` : `${selector} (${type})`);
  }
  if (!good.length)
    return {
      check,
      status: 'fail',
      detail: problems.join('; '),
      fix: `publish a current 2048-bit key from your mail provider at <selector>._domainkey.${domain}`,
    };
  const weak = good.filter((g) => / \(RSA 1\d{3}\)$/.test(g));
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
