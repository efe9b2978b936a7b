// One email-syntax policy for local checks, chosen on purpose (see README, "Email policy"):
// - exactly one unquoted "@"; no whitespace anywhere;
// - local part: 1-64 characters, a dot-atom of RFC 5322 atext (letters, digits and !#$%&'*+-/=?^_`{|}~), so
//   `customer/department=shipping@example.com` passes; no leading, trailing or doubled dots; UTF-8 letters allowed
//   (RFC 6531); quoted local parts are refused (practically never in prospect lists, and senders refuse them);
// - domain: 1-253 characters, at least two labels of 1-63 letters (Unicode allowed, for IDN), digits or inner hyphens
//   (so `test@iana-.com` fails), no IP literals, and a top-level label that is not all digits.

const atext = /^[\p{L}\p{N}\p{M}!#$%&'*+\-/=?^_`{|}~]+$/u;
const label = /^[\p{L}\p{N}\p{M}](?:[\p{L}\p{N}\p{M}-]{0,61}[\p{L}\p{N}\p{M}])?$/u;

// The common case, plain ASCII, in one regex; anything it does not accept gets the full check and a reason.
const plainAscii =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Why `value` is not an acceptable email, or null when it is. */
export function emailProblem(value: string): string | null {
  if (value.length <= 254 && plainAscii.test(value) && value.indexOf('@') <= 64 && !/\.\d+$/.test(value)) return null;
  if (value === '') return 'empty';
  if (/\s/.test(value)) return 'contains whitespace';
  const at = value.lastIndexOf('@');
  if (at < 0) return 'missing @';
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (local.includes('@')) return local.startsWith('"') ? 'quoted local parts are not accepted' : 'more than one @';
  if (local === '') return 'empty local part';
  if (local.length > 64) return 'local part longer than 64 characters';
  if (local.startsWith('"')) return 'quoted local parts are not accepted';
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return 'misplaced dot in the local part';
  if (!local.split('.').every((part) => atext.test(part))) return 'invalid character in the local part';
  return domainProblem(domain);
}

/** Why `domain` is not a usable domain name (the domain half of the policy above), or null. */
export function domainProblem(domain: string): string | null {
  if (domain === '') return 'empty domain';
  if (domain.startsWith('[')) return 'IP-address domains are not accepted';
  if (domain.length > 253) return 'domain longer than 253 characters';
  const labels = domain.split('.');
  if (labels.length < 2) return `invalid domain "${domain}": no top-level domain`;
  if (!labels.every((l) => label.test(l))) return `invalid domain "${domain}"`;
  if (/^\d+$/.test(labels[labels.length - 1]!)) return `invalid domain "${domain}": numeric top-level domain`;
  return null;
}
