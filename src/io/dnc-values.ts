// What a do-not-contact value is: an email, or a domain. Values are trimmed and lower-cased; URLs
// (https://www.x.com/path) and "@x.com" are reduced to the bare domain, and a leading "www." is dropped:
// a DNC domain is matched against the domain of an email address, and no one's address is at www.x.com.
import { domainProblem, emailProblem } from './email.js';

export type DncValue = { ok: true; value: string; type: 'email' | 'domain' } | { ok: false; reason: string };

// The common shapes in plain ASCII, accepted without the general checks.
const plainDomain = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function classifyDncValue(raw: string): DncValue {
  let value = raw.trim().toLowerCase();
  if (plainDomain.test(value) && !value.startsWith('www.') && value.length <= 253)
    return { ok: true, value, type: 'domain' };
  if (!value) return { ok: false, reason: 'empty value' };
  if (value.startsWith('@')) value = value.slice(1);
  else if (value.includes('@') && !/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    const problem = emailProblem(value);
    return problem ? { ok: false, reason: `invalid email: ${problem}` } : { ok: true, value, type: 'email' };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      value = new URL(value).hostname;
    } catch {
      return { ok: false, reason: 'invalid URL' };
    }
  } else {
    value = value.split(/[/?#]/, 1)[0]!.replace(/:\d+$/, '');
  }
  value = value.replace(/^www\./, '').replace(/\.$/, '');
  const problem = domainProblem(value);
  return problem ? { ok: false, reason: `not an email or a domain: ${problem}` } : { ok: true, value, type: 'domain' };
}
