// DMARC (RFC 7489): one record at _dmarc.<domain>, its policy, where aggregate reports go, and its alignment modes.
import { domainToASCII } from 'node:url';
import { DnsFailure, type Lookups } from './resolver.js';
import type { Finding } from './finding.js';
import { recordTags, repeatedTag } from './tags.js';

/** A DMARC record: from its first character, its version exactly DMARC1 (RFC 7489 6.4 writes it in hex: case
 * counts), then ; or the end. */
const isDmarc = (record: string) => /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(;|$)/.test(record.trimEnd());
/** A record meant as DMARC that receivers do not read as one ("v=dmarc1", "v=DMARC1 p=reject" without a ;, a space
 * before v=: records that do not start with v= are discarded, RFC 7489 6.6.3). */
const nearDmarc = (record: string) => !isDmarc(record) && /^\s*v\s*=\s*dmarc/i.test(record);

interface AtName {
  /** DMARC records, and records meant as DMARC that are not. */
  records: string[];
  broken: string[];
}

async function readName(dns: Lookups, name: string): Promise<AtName> {
  const txt = await dns.txt(name);
  return { records: txt.filter(isDmarc), broken: txt.filter(nearDmarc) };
}

/** The records at _dmarc.<domain>, or, when it has none, at the closest parent domain that has some (the
 * organisational domain's record covers its subdomains, RFC 7489 6.6.3; without a public-suffix list, each parent of
 * two labels or more is tried). */
async function findRecords(dns: Lookups, domain: string): Promise<AtName & { name: string; from?: string }> {
  const name = `_dmarc.${domain}`;
  const own = await readName(dns, name);
  if (own.records.length || own.broken.length) return { name, ...own };
  const labels = domain.split('.');
  for (let i = 1; i <= labels.length - 2; i++) {
    const parent = labels.slice(i).join('.');
    const found = await readName(dns, `_dmarc.${parent}`);
    if (found.records.length) return { name: `_dmarc.${parent}`, records: found.records, broken: [], from: parent };
  }
  return { name, records: [], broken: [] };
}

/** A record meant as DMARC, written so receivers read it: its tags kept as they are (its policy, its addresses), in
 * their order, separated by "; " after an exact v=DMARC1; p=none and a report address added only where it has none. */
function repaired(broken: string, domain: string): string {
  // A tag runs from its name= to the next name= (whatever separates them: ;, spaces, commas); a value keeps its
  // commas (rua=mailto:a@x, mailto:b@x), written without the spaces.
  const starts = [...broken.matchAll(/([A-Za-z]+)\s*=/g)];
  const tags = starts
    .map((m, i) => {
      const value = broken.slice(m.index! + m[0].length, starts[i + 1]?.index ?? broken.length);
      return [m[1]!.toLowerCase(), value.replace(/^[\s;,]+|[\s;,]+$/g, '').replace(/\s*,\s*/g, ',')] as const;
    })
    .filter(([name, value]) => name !== 'v' && value);
  const has = (name: string) => tags.some(([tag]) => tag === name);
  const written = tags.map(([name, value]) => `${name}=${value}`);
  if (!has('p')) written.unshift('p=none');
  if (!has('rua')) written.push(`rua=mailto:dmarc-reports@${domain}`);
  return ['v=DMARC1', ...written].join('; ');
}

/** What makes a valid record weaker than it looks: each with what to change. */
function weaknesses(
  t: Map<string, string>,
  at: { tag: string; policy: string; name: string; domain: string; from?: string },
): { warnings: Array<[string, string]>; strict: string[] } {
  const { tag, policy, name, domain, from } = at;
  const warnings: Array<[string, string]> = [];
  if (policy === 'none')
    warnings.push([
      'monitoring only: mail spoofing the domain is still delivered',
      `move to ${tag}=quarantine${from ? ` in the record at ${name}` : ''} once the aggregate reports show only your own senders`,
    ]);
  // pct= below 100 applies the policy to that share of failing mail only: pct=0 is no policy at all.
  const pct = t.get('pct');
  if (pct !== undefined && policy !== 'none' && !(Number(pct) >= 100))
    warnings.push([
      `pct=${pct}: the policy applies to ${/^\d+$/.test(pct) ? `${pct}% of` : 'none of'} the mail that fails it`,
      `remove pct= from the record at ${name} (100 is the default)`,
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
  return { warnings, strict };
}

/** At most this many report addresses of a record are checked (each costs a lookup). */
const maxReportAddresses = 5;

/** The last two labels of a name: without a public-suffix list, what tells one organisation's names from another's
 * (a miss under a two-label suffix such as co.uk only leaves a check out, never warns wrongly). */
const orgOf = (name: string) => (domainToASCII(name) || name).split('.').slice(-2).join('.');

/** The rua=mailto: addresses at another organisation's domain that has not said it takes reports for `owner`: a
 * receiver sends those none (RFC 7489 7.1: the destination publishes <owner>._report._dmarc.<its domain>). */
async function unauthorisedReports(dns: Lookups, rua: string, owner: string): Promise<Array<[string, string]>> {
  const external = rua
    .split(',')
    .map((uri) => /^\s*mailto:[^@]*@([^!\s]+)/i.exec(uri)?.[1]?.toLowerCase().replace(/\.$/, ''))
    .filter((host): host is string => !!host && orgOf(host) !== orgOf(owner));
  const missing: Array<[string, string]> = [];
  for (const host of [...new Set(external)].slice(0, maxReportAddresses)) {
    // `owner` is as DNS holds it already (domains check looks names up in their xn-- form); the address may not be.
    const name = `${owner}._report._dmarc.${domainToASCII(host) || host}`;
    // A lookup the destination's name servers fail tells nothing about this domain's record: that address is passed over.
    const found = await dns.txt(name).catch((error: unknown) => {
      if (error instanceof DnsFailure && !error.unreachable) return undefined;
      throw error;
    });
    if (found && !found.some(isDmarc)) missing.push([host, name]);
  }
  return missing;
}

/** Why receivers read no one DMARC record at `name`, as a failed check; undefined when they read `records[0]`. */
function unreadable(found: AtName & { name: string }, domain: string): Finding | undefined {
  const { name, records, broken } = found;
  const check = 'DMARC';
  if (!records.length && broken.length)
    return {
      check,
      status: 'fail',
      detail:
        `${name} has a record receivers do not read as DMARC: "${broken[0]}" ` +
        '(v=DMARC1 exactly, in capitals and first, then tags separated by ";")',
      fix: `replace it with "${repaired(broken[0]!, domain)}"`,
      record: broken[0],
    };
  if (!records.length)
    return {
      check,
      status: 'fail',
      detail: 'no DMARC record: Google and Yahoo refuse bulk mail without one',
      fix:
        `publish ${name}. TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain}" ` +
        '(then p=quarantine once the reports are clean)',
    };
  if (records.length > 1)
    return {
      check,
      status: 'fail',
      detail: `${records.length} DMARC records: receivers ignore them all (RFC 7489 6.6.3)`,
      fix: `keep one TXT record at ${name}`,
    };
  // Which of the two a receiver reads, if it reads the record at all, is its own choice: neither can be judged.
  const twice = repeatedTag(records[0]!, { caseSensitive: false });
  if (twice !== undefined)
    return {
      check,
      status: 'fail',
      detail:
        `${twice}= appears twice: the record is invalid, and receivers may discard it or read either value ` +
        "(RFC 7489 6.4 writes DMARC in DKIM's tag syntax, RFC 6376 3.2)",
      fix: `keep one ${twice}= in the record at ${name}`,
      record: records[0],
    };
  return undefined;
}

export async function checkDmarc(dns: Lookups, domain: string): Promise<Finding> {
  // `name`: where the record is, the parent's when it is inherited.
  const found = await findRecords(dns, domain);
  const failed = unreadable(found, domain);
  if (failed) return failed;
  const { name, from } = found;
  const check = 'DMARC';
  const record = found.records[0]!;
  const t = recordTags(record, { caseSensitive: false });
  // Under a parent's record, its subdomain policy (sp=) applies when it has one: that is the tag to change.
  const policies = ['none', 'quarantine', 'reject'];
  const subdomains = t.get('sp')?.toLowerCase();
  // A subdomain policy that is none of the three voids the record as a bad p= does: receivers act as if p=none.
  const badSp = subdomains !== undefined && !policies.includes(subdomains);
  // So does a p= that is none of them, even under a parent whose sp= would otherwise apply.
  const badP = !policies.includes((t.get('p') ?? '').toLowerCase());
  const tag = badSp || (from && t.get('sp') && !badP) ? 'sp' : 'p';
  const policy = (t.get(tag) ?? '').toLowerCase();
  if (!policies.includes(policy))
    return {
      check,
      status: 'fail',
      detail: policy
        ? `policy ${tag}=${policy} is not none, quarantine or reject` +
          (badSp || from ? ': receivers read the whole record as p=none (RFC 7489 6.6.3)' : '')
        : t.get('rua')
          ? 'no policy (p=): receivers act as if it said p=none, monitoring only (RFC 7489 6.6.3)'
          : 'no policy (p=) and no rua=: receivers apply no DMARC to the mail at all (RFC 7489 6.6.3)',
      // Changed in place: a second record beside it would void both (RFC 7489 6.6.3).
      fix: policy
        ? `in the record at ${name}, write ${tag}=quarantine or ${tag}=reject (or ${tag}=none to monitor) instead of ${tag}=${policy}`
        : `add p=none to the record at ${name} (then p=quarantine once the reports are clean)`,
      record,
    };
  const { warnings, strict } = weaknesses(t, { tag, policy, name, domain, from });
  for (const [host, at] of await unauthorisedReports(dns, t.get('rua') ?? '', from ?? domain))
    warnings.push([
      `${host} has not said it takes reports for ${from ?? domain} (no "v=DMARC1" at ${at}): receivers send it none`,
      `have ${host} publish ${at}. TXT "v=DMARC1" (a report service does so once the domain is added to its account)`,
    ]);
  const alignment = `alignment ${strict.length ? 'strict' : 'relaxed'}`;
  const inherited = from ? ` (the record of ${from})` : '';
  if (!warnings.length)
    return {
      check,
      status: 'pass',
      detail: `${tag}=${policy}, reports to ${t.get('rua')}, ${alignment}${inherited}`,
      record,
    };
  return {
    check,
    status: 'warn',
    detail: `${tag}=${policy}${inherited}; ${warnings.map(([what]) => what).join('; ')}`,
    fix: warnings.map(([, how]) => how).join('; '),
    record,
  };
}
