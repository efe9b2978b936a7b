// One email-syntax policy for local checks, chosen on purpose (see README, "Email policy"):
// - exactly one unquoted "@"; no whitespace anywhere;
// - lengths in octets of UTF-8, as RFC 5321 counts them: at most 254 for the address, 64 for the local part and 253
//   for the domain (`josé` is 5 octets);
// - local part: a dot-atom of RFC 5322 atext (letters, digits and !#$%&'*+-/=?^_`{|}~), so
//   `customer/department=shipping@example.com` passes; no leading, trailing or doubled dots; UTF-8 letters allowed
//   (RFC 6531); quoted local parts are refused (practically never in prospect lists, and senders refuse them);
// - domain: at least two labels of letters (Unicode allowed, for IDN), digits or inner hyphens (so `test@iana-.com`
//   fails), each at most 63 octets and the whole at most 253 in the form mail uses (IDNA's xn--), no IP literals, no
//   look-alike characters that IDNA turns into other ones (`ｇｍａｉｌ.com` is gmail.com, `⒈x.com` is 1.x.com), and a
//   top-level label of two or more characters, not all digits, and not one of RFC 6761's special-use names that no
//   mail reaches (arpa, invalid, local, localhost, onion, test). `.example` stays allowed: documentation and the
//   sandbox use it.
import { unseenShown } from '../visible-text.js';
import { domainToASCII } from 'node:url';

const atext = /^[\p{L}\p{N}\p{M}!#$%&'*+\-/=?^_`{|}~]+$/u;
const label = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;

// The common case, plain ASCII, in one regex; anything it does not accept gets the full check and a reason.
const plainAscii =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

const octets = (text: string) => Buffer.byteLength(text, 'utf8');

/** A top-level label the plain check lets through but the policy refuses: not letters, one letter, special-use. */
const specialUse = new Set(['arpa', 'invalid', 'local', 'localhost', 'onion', 'test']);
const oddTopLevel = new RegExp(`\\.(?:[^.]*[^a-z.][^.]*|[a-z]|${[...specialUse].join('|')})$`, 'i');

/** Why `value` is not an acceptable email, or null when it is. */
export function emailProblem(value: string): string | null {
  if (
    value.length <= 254 &&
    plainAscii.test(value) &&
    value.indexOf('@') <= 64 &&
    !oddTopLevel.test(value) &&
    value.indexOf('--', value.indexOf('@')) === -1
  )
    return null;
  if (value === '') return 'empty';
  if (/\s/.test(value)) return 'contains whitespace';
  const at = value.lastIndexOf('@');
  if (at < 0) return 'missing @';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.includes('@')) return local.startsWith('"') ? 'quoted local parts are not accepted' : 'more than one @';
  if (local === '') return 'empty local part';
  if (octets(local) > 64) return `local part of ${octets(local)} octets (at most 64)`;
  if (local.startsWith('"')) return 'quoted local parts are not accepted';
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return 'misplaced dot in the local part';
  if (!local.split('.').every((part) => atext.test(part))) return 'invalid character in the local part';
  const problem = domainProblem(domain);
  if (problem) return problem;
  // The address as UTF-8, or with its domain in IDNA's form (as mail without SMTPUTF8 sends it), whichever is longer.
  const length = octets(local) + 1 + Math.max(octets(domain), domainToASCII(domain).length);
  return length > 254 ? `address of ${length} octets (at most 254)` : null;
}

/** Why `domain` is not a usable domain name (the domain half of the policy above), or null. */
export function domainProblem(domain: string): string | null {
  if (domain === '') return 'empty domain';
  if (domain.startsWith('[')) return 'IP-address domains are not accepted';
  const labels = domain.split('.');
  // A character no domain holds is named first: "bad_domain!" lacks more than a top-level domain.
  const stray = /[^\p{L}\p{N}\p{M}.-]/u.exec(domain)?.[0];
  if (stray)
    return `invalid domain "${unseenShown(domain)}": ${unseenShown(JSON.stringify(stray))} is not a letter, digit, hyphen or dot`;
  if (labels.length < 2) return `invalid domain "${domain}": no top-level domain`;
  if (!labels.every((l) => label.test(l))) return `invalid domain "${domain}"`;
  // The form mail uses: IDNA's xn-- labels, where the length limits apply ('' when IDNA refuses the name).
  const ascii = domainToASCII(domain);
  if (!ascii) return `invalid domain "${domain}": not a valid international domain name`;
  const asciiLabels = ascii.split('.');
  const lookAlike = (l: string, i: number) => /[^ -~]/.test(l) && !asciiLabels[i]!.startsWith('xn--');
  if (asciiLabels.length !== labels.length || labels.some(lookAlike))
    return `invalid domain "${domain}": written with look-alike characters (mail would go to ${ascii})`;
  if (asciiLabels.some((l) => l.length > 63)) return `invalid domain "${domain}": a label longer than 63 octets`;
  if (ascii.length > 253) return `domain of ${ascii.length} octets (at most 253)`;
  // RFC 5891: "--" in the third and fourth places is reserved for IDNA's xn-- labels.
  if (asciiLabels.some((l) => l.slice(2, 4) === '--' && !l.startsWith('xn--')))
    return `invalid domain "${domain}": a label with "--" in its third and fourth places`;
  const top = asciiLabels[asciiLabels.length - 1]!.toLowerCase();
  if (/^\d+$/.test(top)) return `invalid domain "${domain}": numeric top-level domain`;
  if (!/^([a-z]{2,}|xn--[a-z0-9-]+)$/.test(top))
    return `invalid domain "${domain}": a top-level domain is two or more letters`;
  if (specialUse.has(top)) return `special-use domain "${domain}": no mail is delivered to .${top}`;
  return null;
}
