// What a do-not-contact value is: an email, or a domain. Values are trimmed and lower-cased, "mailto:" dropped; URLs
// (https://www.x.com/path) and "@x.com" are reduced to the bare domain, and a leading "www." is dropped:
// a DNC domain is matched against the domain of an email address, and no one's address is at www.x.com.
import { domainToASCII } from 'node:url';
import { domainProblem, emailProblem } from './email.js';

export type DncValue = { ok: true; value: string; type: 'email' | 'domain' } | { ok: false; reason: string };

// The common shapes in plain ASCII, accepted without the general checks.
const plainDomain = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A plain ASCII address (the common value of a list, read a million at a time): taken as it is. */
const plainEmail =
  /^[a-z0-9_%+-]+(?:\.[a-z0-9_%+-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

// eslint-disable-next-line no-control-regex -- plain ASCII is what is looked for
const ascii = /^[\x00-\x7f]*$/;

/** A profile's page (linkedin.com/in/ann, with or without its scheme): a person, not their domain. Read as a URL it
 * would block linkedin.com. */
export const isLinkedInProfile = (text: string) =>
  /^([a-z][a-z0-9+.-]*:\/\/)?([\w-]+\.)*linkedin\.com\/./i.test(text.trim());

export function classifyDncValue(raw: string): DncValue {
  // "mailto:" is a way of writing the address (an export's link column, a copied unsubscribe link with its
  // ?subject=); so is a final dot ("ann@acme.com.", the domain written whole) and a mail program's "Ann Smith
  // <ann@acme.com>", whose address is the one in brackets whatever the name says (RFC 5322 3.4).
  let value = raw.trim().toLowerCase();
  // One form for the same letters ("é" as one code point or as e and an accent), as RFC 6532 3.1 asks of addresses.
  if (!ascii.test(value)) value = value.normalize('NFC');
  const named = /^[^<>]*<([^<>]+)>$/.exec(value);
  if (named) value = named[1]!.trim();
  value = value.replace(/^mailto:([^?]*)(\?.*)?$/, '$1').replace(/\.$/, '');
  if (plainDomain.test(value) && !value.startsWith('www.') && value.length <= 253)
    return { ok: true, value, type: 'domain' };
  if (!value) return { ok: false, reason: 'empty value' };
  if (value.startsWith('@')) value = value.slice(1);
  else if (value.includes('@') && !/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    const problem = emailProblem(value);
    return problem ? { ok: false, reason: `invalid email: ${problem}` } : { ok: true, value, type: 'email' };
  }
  if (isLinkedInProfile(value)) return { ok: false, reason: 'a LinkedIn profile URL, not an email or a domain' };
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return { ok: false, reason: 'invalid URL' };
    }
  } else {
    value = value.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, '');
  }
  value = value.replace(/^www\./, '');
  const problem = domainProblem(value);
  return problem ? { ok: false, reason: `not an email or a domain: ${problem}` } : { ok: true, value, type: 'domain' };
}

/** The domain in the one form both sides of a DNC lookup are compared in: lower-case, IDNA's ASCII (bücher.de is
 * xn--bcher-kva.de), no final dot. */
export function canonicalDomain(domain: string): string {
  const lower = domain.toLowerCase().replace(/\.$/, '');
  return ascii.test(lower) ? lower : domainToASCII(lower) || lower;
}

/** An email or domain in that form ("Ann@Bücher.de" is "ann@xn--bcher-kva.de"). Run for every row of an import: the
 * common ASCII case is one lower-casing and one test. */
export function canonicalDncKey(raw: string): string {
  const lower = raw.toLowerCase();
  if (ascii.test(lower)) return lower.endsWith('.') ? lower.slice(0, -1) : lower;
  const value = raw.normalize('NFC');
  const at = value.lastIndexOf('@');
  return at < 0
    ? canonicalDomain(value)
    : `${value.slice(0, at).toLowerCase()}@${canonicalDomain(value.slice(at + 1))}`;
}

/** A value read from a DNC list, as the service holds it, in the lookup form: plain emails and domains as they are,
 * anything else (an "@acme.com", a URL, "www." in front, a Unicode domain) through the rules of `dnc add` first.
 * Undefined for a value that is neither. */
export function listValueKey(raw: string): string | undefined {
  // The common case: the value as the service holds it, already plain and lower-case, taken with no new string.
  if (isPlainListValue(raw)) return raw;
  // "mailto:" and a final dot (ann@acme.com.) are ways of writing the same address.
  const value = raw
    .trim()
    .toLowerCase()
    .replace(/^mailto:/, '')
    .replace(/\.$/, '');
  if (isPlainListValue(value)) return value;
  const item = classifyDncValue(value);
  return item.ok ? canonicalDncKey(item.value) : undefined;
}

/** A plain lower-case ASCII email or domain (no "www." in front): a list's value taken as it stands. The DNC read
 * takes these and a few more as they are, tested and hashed as they are read (listValueReader, list-value-hash.ts). */
export function isPlainListValue(value: string): boolean {
  return value.includes('@') ? plainEmail.test(value) : plainDomain.test(value) && !value.startsWith('www.');
}
