// SPF (RFC 7208): the domain's one record, its `all` qualifier, and the DNS lookups it costs a receiver, counted
// through every include and redirect (at most 10, or the receiver gives up with a permanent error).
import type { Lookups } from './resolver.js';
import type { Finding } from './finding.js';

export const maxSpfLookups = 10;
/** Terms that each cost a receiver one lookup (4.6.4). */
const lookupTerms = /^[+?~-]?(include:|a$|a:|a\/|mx$|mx:|mx\/|ptr|exists:)|^redirect=/i;

const spfRecords = (records: string[]) => records.filter((r) => /^v=spf1(\s|$)/i.test(r.trim()));

interface Count {
  lookups: number;
  /** Problems met on the way (an include without a record, a loop). */
  problems: string[];
}

/** Lookups of `record` and of every record it includes or redirects to, counted as a receiver evaluates them: an
 * include reached twice (by two paths) costs twice; one that includes itself, on the way down, is a loop. Past the
 * limit (and a margin) it stops counting: the receiver has given up. */
async function countLookups(dns: Lookups, record: string, count: Count, path: string[]): Promise<void> {
  const terms = record.trim().split(/\s+/).slice(1);
  // A redirect is ignored when the record has an all mechanism (RFC 7208 6.1).
  const hasAll = terms.some((t) => /^[+?~-]?all$/i.test(t));
  for (const term of terms) {
    if (!lookupTerms.test(term) || (hasAll && /^redirect=/i.test(term))) continue;
    count.lookups++;
    const target = /^[+?~-]?include:(.+)$/i.exec(term)?.[1] ?? /^redirect=(.+)$/i.exec(term)?.[1];
    if (!target || count.lookups > maxSpfLookups + 5) continue;
    const name = target.toLowerCase().replace(/\.$/, '');
    if (name.includes('%')) continue; // a macro: expanded per message, not countable here
    if (path.includes(name)) {
      count.problems.push(`${term} includes a record that includes it (a loop)`);
      continue;
    }
    const found = spfRecords(await dns.txt(name));
    if (found.length !== 1) {
      count.problems.push(`${term}: ${name} has ${found.length ? `${found.length} SPF records` : 'no SPF record'}`);
      continue;
    }
    await countLookups(dns, found[0]!, count, [...path, name]);
  }
}

export async function checkSpf(dns: Lookups, domain: string): Promise<Finding> {
  const records = spfRecords(await dns.txt(domain));
  const check = 'SPF';
  if (!records.length)
    return {
      check,
      status: 'fail',
      detail: 'no SPF record: receivers cannot tell which servers may send as the domain',
      fix: `publish ${domain}. TXT "v=spf1 include:<your mail provider's SPF domain> ~all" (Google Workspace: include:_spf.google.com)`,
    };
  if (records.length > 1)
    return {
      check,
      status: 'fail',
      detail: `${records.length} SPF records: receivers treat two as a permanent error (RFC 7208 3.2)`,
      fix: `merge them into one TXT record at ${domain}: ${records.map((r) => `"${r}"`).join(' and ')}`,
    };
  const record = records[0]!;
  const count: Count = { lookups: 0, problems: [] };
  await countLookups(dns, record, count, [domain.toLowerCase()]);
  const all = /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record);
  const redirect = /(?:^|\s)redirect=/i.test(record);
  const problems: Array<[string, string]> = [];
  if (all && (all[1] === '+' || all[1] === ''))
    problems.push(['ends in +all: anyone may send as the domain', 'end the record with ~all (or -all)']);
  else if (all?.[1] === '?')
    problems.push(['ends in ?all: receivers give the record no weight', 'end it with ~all or -all']);
  else if (!all && !redirect)
    problems.push(['has no all mechanism: mail from any other server is neutral', 'end the record with ~all or -all']);
  if (count.lookups > maxSpfLookups)
    problems.push([
      `costs ${count.lookups} DNS lookups through its includes; receivers stop at ${maxSpfLookups} (permanent error)`,
      'remove includes of services that no longer send for you, or replace an include by the ip4:/ip6: ranges it lists',
    ]);
  for (const problem of count.problems) problems.push([problem, 'fix or remove that include']);
  if (!problems.length)
    return { check, status: 'pass', detail: `${record} (${count.lookups} of ${maxSpfLookups} lookups)`, record };
  return {
    check,
    status: 'fail',
    detail: problems.map(([what]) => what).join('; '),
    fix: problems.map(([, how]) => how).join('; '),
    record,
  };
}
