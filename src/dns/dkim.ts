// DKIM (RFC 6376): the public keys at <selector>._domainkey.<domain>, for the selectors the user names and the common
// ones of the large providers. A key that is present, not revoked (empty p=) and at least 1024 bits passes.
import { createPublicKey } from 'node:crypto';
import { DnsFailure, type Lookups } from './resolver.js';
import type { Finding } from './finding.js';
import { recordTags, repeatedTag } from './tags.js';

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
  let failure: DnsFailure | undefined;
  for (const selector of names) {
    let records: string[];
    try {
      records = await dns.txt(`${selector}._domainkey.${domain}`);
    } catch (error) {
      // A common name the user did not ask for, answered with an error (SERVFAIL): it says nothing about the keys.
      if (!(error instanceof DnsFailure) || error.unreachable || selectors.includes(selector)) throw error;
      unanswered.push(selector);
      failure ??= error;
      continue;
    }
    // A p= in either letter case: a P= that receivers do not read is worth saying (judgeKey).
    for (const record of records) if (/(^|;)\s*p\s*=/i.test(record)) found.push({ selector, record });
  }
  // Every lookup failed: whether the domain has a key is not known, and publishing one is not the fix.
  if (!found.length && failure && unanswered.length === names.length)
    return {
      check,
      status: 'fail',
      detail: `the lookups of every selector failed (${failure.code || 'no answer'}): whether a key is published is not known`,
      fix: `make the domain's name servers answer for <selector>._domainkey.${domain}`,
    };
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
  const problems: Array<[string, string]> = [];
  // A selector the user named is the one their mail is signed with: no key there fails it, whatever else is found.
  const missing = selectors.filter((selector) => !found.some((f) => f.selector === selector));
  if (missing.length)
    return {
      check,
      status: 'fail',
      detail:
        `no DKIM key at the selector${missing.length === 1 ? '' : 's'} you named: ${missing.join(', ')}` +
        ` (keys at ${[...new Set(found.map((f) => f.selector))].join(', ')})`,
      fix: missing
        .map((selector) => `publish your mail provider's key at ${selector}._domainkey.${domain}`)
        .concat(['or check the selector name in a message header (DKIM-Signature: s=)'])
        .join('; '),
    };
  const { good, weak, namedFails } = judgeKeys(found, selectors, domain, problems);
  const fixes = (list: Array<[string, string]>) => [...new Set(list.map(([, how]) => how))];
  if (!good.length || namedFails) {
    // No key verifies: a new one is the way out, unless what is wrong is a flag (t=y) or a tag to mend.
    const how = fixes(problems).filter((f) => f !== revokedFix);
    const renewal = how.some((f) => f.startsWith('publish')) || how.length === 0;
    return {
      check,
      status: 'fail',
      detail: [...(good.length ? [`keys at ${good.join(', ')}`] : []), ...problems.map(([what]) => what)].join('; '),
      fix: [
        ...new Set([...how, ...(renewal && !good.length ? [renew(domain, only(found.map((f) => f.selector)))] : [])]),
      ].join('; '),
    };
  }
  const rotate = weak.length
    ? [`rotate the ${[...new Set(weak)].join(' and ')}-bit keys to 2048 bits (Google and Yahoo expect 2048)`]
    : [];
  if (problems.length || rotate.length)
    return {
      check,
      status: 'warn',
      detail: [`keys at ${good.join(', ')}`, ...problems.map(([what]) => what)].join('; '),
      fix: [...fixes(problems), ...rotate].join('; '),
    };
  return { check, status: 'pass', detail: `keys at ${good.join(', ')}` };
}

/** Each key judged: the good ones named, their sizes under 2048 bits, and whether a selector the user named (the key
 * their mail is signed with) has a problem, which fails the check. Problems (and Ed25519 keys alone) are added to
 * `problems`. */
function judgeKeys(
  found: Array<{ selector: string; record: string }>,
  selectors: string[],
  domain: string,
  problems: Array<[string, string]>,
): { good: string[]; weak: number[]; namedFails: boolean } {
  const good: string[] = [];
  const weak: number[] = [];
  let rsa = 0;
  let namedFails = false;
  for (const { selector, record } of found) {
    const judged = repeatedTagProblem(selector, record, domain) ?? judgeKey(selector, record, domain);
    if ('problem' in judged) {
      const named = selectors.includes(selector);
      namedFails ||= named;
      // A revoked key the mail is signed with wants a new one, not its selector removed.
      problems.push(
        named && judged.problem[1] === revokedFix ? [judged.problem[0], renew(domain, selector)] : judged.problem,
      );
    } else {
      good.push(judged.good);
      if (judged.bits !== undefined) {
        rsa++;
        if (judged.bits < 2048) weak.push(judged.bits);
      }
    }
  }
  // RFC 8463 6: an Ed25519 signature beside an RSA one; verifiers without Ed25519 (Microsoft's) see no other.
  if (good.length && !rsa)
    problems.push([
      'only Ed25519 keys: receivers that do not verify Ed25519 (Microsoft among them) treat the mail as unsigned',
      `publish a 2048-bit RSA key at another selector of ${domain} and sign with both (RFC 8463 6)`,
    ]);
  return { good, weak, namedFails };
}

const revokedFix = 'remove revoked selectors';
/** The one value all of these are, or undefined. */
const only = (values: string[]) => (new Set(values).size === 1 ? values[0] : undefined);
/** The key to publish afresh: at the selector, where one is known. */
const renew = (domain: string, selector = '<selector>') =>
  `publish a current 2048-bit key from your mail provider at ${selector}._domainkey.${domain}`;

/** A record with a tag written twice, which receivers discard (RFC 6376 3.2): what to mend, or undefined. */
function repeatedTagProblem(
  selector: string,
  record: string,
  domain: string,
): { problem: [string, string] } | undefined {
  const twice = repeatedTag(record, { caseSensitive: true });
  if (twice === undefined) return undefined;
  return {
    problem: [
      `${selector}: ${twice}= appears twice: receivers discard the record (RFC 6376 3.2)`,
      `keep one ${twice}= in the record at ${selector}._domainkey.${domain}`,
    ],
  };
}

/** One key: what is wrong with it and how to mend it, or how it is named when good ("google (RSA 2048)"). */
function judgeKey(
  selector: string,
  record: string,
  domain: string,
): { problem: [string, string] } | { good: string; bits?: number } {
  const t = recordTags(record, { caseSensitive: true });
  const key = t.get('p');
  const type = (t.get('k') ?? 'rsa').toLowerCase();
  const bits = type === 'rsa' && key ? rsaBits(key) : undefined;
  const at = `${selector}._domainkey.${domain}`;
  const version = t.get('v');
  if (version !== undefined && version !== 'DKIM1')
    return {
      problem: [
        `${selector}: v=${version}, not DKIM1: receivers discard the record (RFC 6376 3.6.1)`,
        `write v=DKIM1 at ${at}`,
      ],
    };
  if (version !== undefined && t.keys().next().value !== 'v')
    return {
      problem: [
        `${selector}: v=DKIM1 is not the first tag, where it must be: receivers may discard the record (RFC 6376 3.6.1)`,
        `move v=DKIM1 to the start of the record at ${at}`,
      ],
    };
  const services = t.get('s');
  if (services !== undefined && !services.split(':').some((v) => ['email', '*'].includes(v.trim())))
    return {
      problem: [
        `${selector}: s=${services} does not include email: receivers do not use the key for mail`,
        `remove s= from ${at}`,
      ],
    };
  const hashes = t.get('h');
  if (hashes !== undefined && !hashes.split(':').some((h) => h.trim() === 'sha256'))
    return {
      problem: [
        `${selector}: h=${hashes} allows no sha256: signatures made with ${type === 'ed25519' ? 'ed25519' : 'rsa'}-sha256 fail (RFC 8301)`,
        `remove h= from ${at}`,
      ],
    };
  if (!['rsa', 'ed25519'].includes(type))
    return {
      problem: [
        `${selector}: k=${type}, a key type receivers do not know: they ignore the key`,
        renew(domain, selector),
      ],
    };
  if (key === undefined)
    return {
      problem: [
        `${selector}: no p= tag (tag names are lower case, RFC 6376 3.2: P= is not read)`,
        `write the tags in lower case at ${at} (v=DKIM1; k=rsa; p=...)`,
      ],
    };
  if (!key) return { problem: [`${selector}: the key is revoked (empty p=)`, revokedFix] };
  // Base64 and folding spaces only (RFC 6376 3.2): a quote pasted from a provider's page is not skipped by receivers.
  const compact = key.replace(/\s+/g, '');
  const stray = /[^A-Za-z0-9+/=]/.exec(compact)?.[0] ?? (/=[^=]/.test(compact) ? '=' : undefined);
  if (stray)
    return {
      problem: [
        `${selector}: p= holds ${JSON.stringify(stray)}, which is not base64: receivers cannot read the key`,
        `publish the key again at ${at}, as its base64 alone (no quotes inside p=)`,
      ],
    };
  if (type === 'rsa' && bits === undefined)
    return { problem: [`${selector}: p= is not an RSA public key`, `publish the key again at ${at}`] };
  // An Ed25519 key is its 32 bytes, in base64 (RFC 8463 4.2).
  if (type === 'ed25519' && Buffer.from(key.replace(/\s+/g, ''), 'base64').length !== 32)
    return { problem: [`${selector}: p= is not an Ed25519 public key (32 bytes)`, `publish the key again at ${at}`] };
  if (bits !== undefined && bits < 1024)
    return { problem: [`${selector}: an RSA key of ${bits} bits (under 1024)`, renew(domain, selector)] };
  if ((t.get('t') ?? '').split(':').some((flag) => flag.trim() === 'y'))
    return {
      problem: [
        `${selector}: t=y, testing: receivers treat its mail as unsigned (RFC 6376 3.6.1)`,
        `remove t=y from ${at} once signing works`,
      ],
    };
  return { good: bits !== undefined ? `${selector} (RSA ${bits})` : `${selector} (${type})`, bits };
}
