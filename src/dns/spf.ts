// SPF (RFC 7208): the domain's one record, its `all` qualifier, and the DNS lookups it costs a receiver, counted
// through every include and redirect (at most 10, or the receiver gives up with a permanent error).
import { unseenShown } from '../visible-text.js';
import { isIPv4, isIPv6 } from 'node:net';
import { DnsFailure, type Lookups } from './resolver.js';
import type { Finding } from './finding.js';

export const maxSpfLookups = 10;
/** Past this many, includes are no longer followed (the receiver gave up long before): the count is then "more than". */
const countedLookups = maxSpfLookups + 5;
/** Lookups that find nothing a receiver allows before the record is a permanent error (RFC 7208 4.6.4). */
const maxVoidLookups = 2;
/** MX records an mx mechanism may find before it is a permanent error (4.6.4: at most 10 address lookups). */
const maxMxRecords = 10;
/** Terms that each cost a receiver one lookup (4.6.4). */
const lookupTerms = /^[+?~-]?(include:|a$|a:|a\/|mx$|mx:|mx\/|ptr$|ptr:|exists:)|^redirect=/i;

/** The records receivers read as SPF: those that begin with v=spf1 exactly (RFC 7208 4.5). */
const spfRecords = (records: string[]) => records.filter((r) => /^v=spf1( |$)/i.test(r));
/** Records that would be SPF but for spaces in front, which make receivers discard them. */
const spacedSpfRecords = (records: string[]) => records.filter((r) => /^ +v=spf1( |$)/i.test(r));

/** A record's terms after v=spf1, split as receivers split them: on ASCII spaces only (RFC 7208 4.6.1), so a
 * non-breaking space pasted from a web page joins two terms into one that is not a term. */
const termsOf = (record: string) =>
  record
    .replace(/^ +| +$/g, '')
    .split(/ +/)
    .slice(1);

/** The terms a receiver evaluates: those up to the first all (mechanisms after it are ignored, RFC 7208 5.1). */
const evaluatedTerms = (record: string) => {
  const terms = termsOf(record);
  const all = terms.findIndex((term) => /^[+?~-]?all$/i.test(term));
  return all < 0 ? terms : terms.slice(0, all + 1);
};

interface Count {
  lookups: number;
  /** Problems met on the way (an include without a record, a loop), each with its fix. */
  problems: Array<[string, string]>;
  /** The a, mx and exists terms whose lookup found nothing ("void lookups"). */
  voids: string[];
  /** The terms whose lookup failed (SERVFAIL, a timeout): not known. */
  unknown: string[];
}

/** A problem of an include or redirect term, and its fix, which names the term (a record may have several). */
const includeProblem = (term: string, what: string): [string, string] => [
  `${term}${what}`,
  `fix or remove ${term.replace(/^\+/, '')} in the record`,
];

/** An a, mx or exists term's lookup (its target: the term's domain, else the record's own): whether it found nothing
 * (a void lookup), and an mx that finds more records than a receiver looks up, a problem. `path`: the domains whose
 * records led here, the term's own last. */
async function lookUpTerm(dns: Lookups, rawTerm: string, path: string[], count: Count): Promise<void> {
  const recordDomain = path.at(-1)!;
  const [, kind = '', target] = /^[+?~-]?(a|mx|exists)(?::([^/]+))?/i.exec(rawTerm) ?? [];
  const name = (target ?? recordDomain).toLowerCase().replace(/\.$/, '');
  if (!kind || name.includes('%')) return; // a macro: expanded per message, not known here
  // A term of an included record is named with its record: a bare "a" there is not the domain's own.
  const term = path.length > 1 ? `${rawTerm} (in ${recordDomain}'s record)` : rawTerm;
  let found: number;
  try {
    // exists asks for A records whatever the connection (RFC 7208 5.7); a, for the connection's own family.
    const lookUp = { mx: dns.mx, exists: dns.ipv4, a: dns.addresses }[kind.toLowerCase() as 'mx' | 'exists' | 'a'];
    found = (await lookUp(name)).length;
  } catch (error) {
    // A name whose servers fail tells nothing of the record as a whole: said, and the rest of the check goes on.
    if (!(error instanceof DnsFailure) || error.unreachable) throw error;
    count.unknown.push(`${term} (${error.code || 'no answer'})`);
    return;
  }
  if (!found) count.voids.push(term);
  else if (kind.toLowerCase() === 'mx' && found > maxMxRecords)
    count.problems.push([
      `${term}: ${name} has ${found} MX records; receivers look up at most ${maxMxRecords} (permanent error)`,
      "replace that mx term by the sending servers' ip4:/ip6: ranges",
    ]);
}

/** Lookups of `record` and of every record it includes or redirects to, counted as a receiver evaluates them: an
 * include reached twice (by two paths) costs twice; one that includes itself, on the way down, is a loop. Past the
 * limit (and a margin) it stops counting: the receiver has given up. */
async function countLookups(dns: Lookups, record: string, count: Count, path: string[]): Promise<void> {
  const terms = evaluatedTerms(record);
  // A redirect is ignored when the record has an all mechanism (RFC 7208 6.1).
  const hasAll = terms.some((t) => /^[+?~-]?all$/i.test(t));
  for (const term of terms) {
    if (!lookupTerms.test(term) || (hasAll && /^redirect=/i.test(term))) continue;
    count.lookups++;
    if (count.lookups > countedLookups) continue;
    const target = /^[+?~-]?include:(.+)$/i.exec(term)?.[1] ?? /^redirect=(.+)$/i.exec(term)?.[1];
    if (!target) {
      if (!/^[+?~-]?ptr/i.test(term)) await lookUpTerm(dns, term, path, count);
      continue;
    }
    const name = target.toLowerCase().replace(/\.$/, '');
    if (name.includes('%')) continue; // a macro: expanded per message, not countable here
    if (path.includes(name)) {
      count.problems.push(includeProblem(term, ' includes a record that includes it (a loop)'));
      continue;
    }
    const found = spfRecords(await dns.txt(name));
    if (found.length !== 1) {
      count.problems.push(
        includeProblem(term, `: ${name} has ${found.length ? `${found.length} SPF records` : 'no SPF record'}`),
      );
      continue;
    }
    // A record a receiver cannot read is a permanent error wherever it is reached (RFC 7208 5.2: an include's
    // permerror is the whole check's).
    const unreadable = syntaxProblems(found[0]!)[0];
    if (unreadable) count.problems.push(includeProblem(term, `: ${name}'s record: ${unreadable}`));
    // An included record that passes everyone (its all, or the all its own redirect ends in; an ip4:0.0.0.0/0) makes
    // the include match everyone (RFC 7208 5.2): a pass when the include's own qualifier is + (-include, ~include and
    // ?include give everyone that result instead). (A redirect's all is the record's own, 6.1: finalAll judges it.)
    const included = /^\+?include:/i.test(term) ? await finalAll(dns, found[0]!, name) : undefined;
    if (included && (passesAll(included.qualifier) || included.opens))
      count.problems.push(
        includeProblem(term, `: ${name} passes every server, so anyone may send as the domain through it`),
      );
    await countLookups(dns, found[0]!, count, [...path, name]);
  }
}

/** The qualifier of the record's all mechanism ('' for a bare all), undefined without one. */
const allOf = (record: string) => /(?:^|\s)([+?~-]?)all(?:\s|$)/i.exec(record)?.[1];
/** An all that passes every server: +all, or a bare all (+ is the default qualifier). */
const passesAll = (qualifier: string | undefined) => qualifier === '+' || qualifier === '';
/** A pass for every address of a family: a /0 prefix (ip4:0.0.0.0/0, ip6:::/0, a/0, mx//0; qualifier + or none) is
 * +all for it, where a receiver reaches it (before the all). */
const opensEvery = (record: string) =>
  evaluatedTerms(record).some((term) =>
    /^\+?(?:ip4:[\d.]+\/0|ip6:[\da-f:.]+\/0|(?:a|mx)(?::[^/]+)?(?:\/0(?:\/\/\d+)?|\/\d+\/\/0|\/\/0))$/i.test(term),
  );
const redirectOf = (record: string) => /(?:^|\s)redirect=(\S+)/i.exec(record)?.[1]?.toLowerCase().replace(/\.$/, '');

/** The all that ends the evaluation: the record's own, else (RFC 7208 6.1) that of the record its redirect= names,
 * followed as far as the lookup limit lets a receiver; with the domain it was found at. */
async function finalAll(
  dns: Lookups,
  record: string,
  domain: string,
): Promise<{ qualifier?: string; at: string; redirected: boolean; opens: boolean; unknown?: true }> {
  let at = domain;
  // A /0 in any record of the chain passes everyone: each is evaluated in turn (RFC 7208 6.1).
  let opens = false;
  for (let hops = 0; hops <= maxSpfLookups; hops++) {
    opens ||= opensEvery(record);
    const qualifier = allOf(record);
    const target = redirectOf(record);
    if (qualifier !== undefined || !target) return { qualifier, at, redirected: hops > 0, opens };
    // A macro is expanded per message; a target without one record, or a loop, is a problem countLookups says:
    // either way there is no all to judge here.
    if (target.includes('%')) return { at, redirected: hops > 0, opens, unknown: true };
    const found = spfRecords(await dns.txt(target));
    if (found.length !== 1) return { at: target, redirected: true, opens, unknown: true };
    [record, at] = [found[0]!, target];
  }
  return { at, redirected: true, opens, unknown: true };
}

/** Mechanisms written as modifiers (include=_spf.google.com for include:): receivers ignore an unknown modifier (RFC
 * 7208 6), so the record is read, but without them: the servers they name are not allowed. */
function mistypedMechanisms(record: string): Array<[string, string]> {
  return termsOf(record)
    .filter((term) => /^[+?~-]?(include|a|mx|ptr|ip4|ip6|exists|all)=/i.test(term))
    .map((term) => [
      `${term} is read as an unknown modifier and ignored: the servers it names are not allowed`,
      `write it ${term.replace('=', ':')} (a mechanism takes a colon)`,
    ]);
}

/** A mechanism with an address or a host (RFC 7208 5): its qualifier, name, argument and prefix lengths. include,
 * exists and ptr take a domain and no prefix (their / is the domain's own: a macro-literal). */
const addressTerm = /^[+?~-]?(all|a|mx|ip4|ip6)(?=$|[:/])(?::([^/]*))?(?:\/(\d+))?(?:\/\/(\d+))?$/i;
const domainTerm = /^[+?~-]?(include|exists|ptr)(?:$|:(.*)$)/i;
const modifierTerm = /^([a-z][a-z0-9_.-]*)=(.*)$/i;

/** A % that starts no macro receivers expand in a domain (RFC 7208 7.1): %{letter, digits (not 0), r, delimiters},
 * %%, %_ or %-; c, r and t are letters of exp= text only. */
const badMacro = (text: string) => /%(?!\{[slodiphv](?:[1-9]\d*)?r?[-.+,/_=]*\}|[%_-])/i.test(text);

/** A domain-spec without a macro ends in a dot and a top label that is not all digits (RFC 7208 7.1): "localhost"
 * and "192.0.2.1" are not domains to receivers (a permanent error), though a lookup of them may find something. */
const endsInTopLabel = (domain: string) =>
  /\.(?:[a-z0-9]*[a-z][a-z0-9]*|[a-z0-9]+-[a-z0-9-]*[a-z0-9])\.?$/i.test(domain);
const badDomain = (domain: string) => !domain || (!domain.includes('%') && !endsInTopLabel(domain));

/** A prefix length as receivers read it: no leading zero (/024), at most `max`. */
const badPrefix = (length: string | undefined, max: number) =>
  length !== undefined && (!/^(0|[1-9]\d*)$/.test(length) || Number(length) > max);

/** Whether a mechanism is one receivers read: a known name, with the argument it takes, well formed. */
function mechanismReadable(written: string): boolean {
  // A macro stands for a domain's labels: its own / and digits are no prefix length.
  const term = written.replace(/%\{[^}]*\}/g, '%');
  const withDomain = domainTerm.exec(term);
  if (withDomain) {
    const [, name = '', domain] = withDomain;
    // ptr's domain may be left out; include and exists need one.
    return (domain === undefined && name.toLowerCase() === 'ptr') || (domain !== undefined && !badDomain(domain));
  }
  const [, name = '', argument, prefix, prefix6] = addressTerm.exec(term) ?? [];
  switch (name.toLowerCase()) {
    case 'all':
      return argument === undefined && prefix === undefined;
    case 'ip4':
      return isIPv4(argument ?? '') && !badPrefix(prefix, 32) && prefix6 === undefined;
    case 'ip6':
      // Node's isIPv6 takes a zone id (fe80::1%eth0), which no record may hold.
      return (
        isIPv6(argument ?? '') && /^[\da-f:.]+$/i.test(argument!) && !badPrefix(prefix, 128) && prefix6 === undefined
      );
    case 'a':
    case 'mx':
      // A colon promises a domain (a: with none is no term).
      return (argument === undefined || !badDomain(argument)) && !badPrefix(prefix, 32) && !badPrefix(prefix6, 128);
    default:
      return false;
  }
}

/** What makes one term unreadable to receivers, or undefined. */
function termProblem(term: string): string | undefined {
  if (/[^\x21-\x7e]/.test(term))
    return (
      `"${unseenShown(JSON.stringify(term).slice(1, -1))}" holds a character receivers do not read in a term ` +
      '(only ASCII, and plain spaces between terms): the record is a permanent error'
    );
  const modifier = modifierTerm.exec(term);
  const name = modifier?.[1]!.toLowerCase();
  if ((name === 'redirect' || name === 'exp') && badDomain(modifier![2]!))
    return `"${term}" names no domain: the record is a permanent error (RFC 7208 6)`;
  if (!modifier && !mechanismReadable(term))
    return `"${term}" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)`;
  if (badMacro(term))
    return `"${term}" has a macro receivers do not expand: the record is a permanent error (RFC 7208 7.1)`;
  return undefined;
}

/** Terms a receiver cannot read, which make the whole record a permanent error (RFC 7208 4.6): an unknown mechanism
 * ("inclde:"), an address, domain or prefix that is not one, a mechanism without the argument it needs, a macro they
 * do not expand, redirect= or exp= twice. Unknown modifiers are allowed (6). */
function syntaxProblems(record: string): string[] {
  const terms = termsOf(record);
  const problems = terms.map(termProblem).filter((problem) => problem !== undefined);
  for (const name of ['redirect', 'exp'])
    if (terms.filter((term) => modifierTerm.exec(term)?.[1]?.toLowerCase() === name).length > 1)
      problems.push(`${name}= appears more than once: a permanent error (RFC 7208 6)`);
  return problems;
}

export async function checkSpf(dns: Lookups, domain: string): Promise<Finding> {
  const txt = await dns.txt(domain);
  const records = spfRecords(txt);
  const check = 'SPF';
  const spaced = spacedSpfRecords(txt)[0];
  if (!records.length && spaced !== undefined)
    return {
      check,
      status: 'fail',
      detail:
        'the SPF record begins with a space: receivers discard it (RFC 7208 4.5), so the domain has none they read',
      fix: `remove the space before v=spf1 in the TXT record at ${domain}`,
      record: spaced,
    };
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
      detail:
        `${records.length} SPF records: receivers treat two as a permanent error (RFC 7208 3.2)` +
        (records.some((r) => passesAll(allOf(r))) ? '; one ends in +all: anyone may send as the domain' : ''),
      // The one record keeps every sender's mechanisms, and one all: ~all or -all, never the +all one of them had.
      fix: `merge them into one TXT record at ${domain} ending in ~all (or -all): ${records.map((r) => `"${r}"`).join(' and ')}`,
    };
  const record = records[0]!;
  const unreadable = syntaxProblems(record);
  if (unreadable.length)
    return {
      check,
      status: 'fail',
      detail: unreadable.join('; '),
      fix: `correct or remove those terms in the record at ${domain} (v=spf1, then mechanisms such as include:, ip4:, mx, and one all)`,
      record,
    };
  const count: Count = { lookups: 0, problems: [], voids: [], unknown: [] };
  count.problems.push(...mistypedMechanisms(record));
  await countLookups(dns, record, count, [domain.toLowerCase()]);
  const all = await finalAll(dns, record, domain);
  // Through a redirect, the change is made where the all is (or would be).
  const where = all.redirected ? ` (through redirect=, at ${all.at})` : '';
  const change = all.redirected
    ? `end the record at ${all.at} with ~all (or -all)`
    : 'end the record with ~all (or -all)';
  const problems: Array<[string, string]> = [];
  if (passesAll(all.qualifier)) problems.push([`ends in +all${where}: anyone may send as the domain`, change]);
  if (all.opens)
    problems.push([
      'passes every address of a family (a /0 prefix: ip4:0.0.0.0/0, ip6:::/0, a/0): anyone may send as the domain',
      "list your servers' own ranges instead of /0",
    ]);
  else if (all.qualifier === '?') problems.push([`ends in ?all${where}: receivers give the record no weight`, change]);
  else if (all.qualifier === undefined && !all.unknown)
    problems.push([`has no all mechanism${where}: mail from any other server is neutral`, change]);
  if (count.lookups > maxSpfLookups)
    problems.push([
      `costs ${count.lookups > countedLookups ? `more than ${countedLookups}` : count.lookups} DNS lookups through its ` +
        `includes; receivers stop at ${maxSpfLookups} (permanent error)`,
      'remove includes of services that no longer send for you, or replace an include by the ip4:/ip6: ranges it lists',
    ]);
  problems.push(...count.problems);
  // Warnings are said only when nothing fails: a failing record is fixed first.
  const warnings = spfWarnings(count, record, problems);
  if (!problems.length && !warnings.length)
    return { check, status: 'pass', detail: `${record} (${count.lookups} of ${maxSpfLookups} lookups)`, record };
  const [status, said] = problems.length ? (['fail', problems] as const) : (['warn', warnings] as const);
  return {
    check,
    status,
    detail: said.map(([what]) => what).join('; '),
    fix: [...new Set(said.map(([, how]) => how))].join('; '),
    record,
  };
}

/** What weakens a record without breaking it (a void lookup or two, a lookup that failed, ptr); past the void limit,
 * a problem added to `problems` instead. */
function spfWarnings(count: Count, record: string, problems: Array<[string, string]>): Array<[string, string]> {
  const warnings: Array<[string, string]> = [];
  const voids = `${count.voids.join(', ')} ${count.voids.length > 1 ? 'find' : 'finds'} no record`;
  const removeVoids = 'remove the terms that name hosts without records (or publish the records they expect)';
  if (count.voids.length > maxVoidLookups)
    problems.push([`${voids}: receivers stop after ${maxVoidLookups} such lookups (permanent error)`, removeVoids]);
  else if (count.voids.length)
    warnings.push([
      `${voids}: each costs a lookup and allows no one (more than ${maxVoidLookups} are a permanent error)`,
      removeVoids,
    ]);
  if (count.unknown.length)
    warnings.push([
      `the lookups of ${count.unknown.join(', ')} failed: whether they find a record is not known`,
      "make those names' servers answer",
    ]);
  if (/(?:^|\s)[+?~-]?ptr(?=[:\s]|$)/i.test(record))
    warnings.push([
      'uses ptr, which RFC 7208 5.5 says not to: slow, and some receivers skip it',
      "replace ptr by the sending servers' ip4:/ip6: ranges",
    ]);
  return warnings;
}
