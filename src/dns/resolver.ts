// DNS lookups for `domains check`: the system's resolver, or the one --resolver names (an address or a name, and a
// port).
// A name or record that does not exist is an empty answer; a resolver that does not answer stops the check.
import { Resolver, lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { OutreachError, UsageError } from '../errors.js';

/** A lookup that failed. `unreachable`: the DNS server did not answer at all (every lookup would fail the same way);
 * otherwise it answered with an error for this name (SERVFAIL, REFUSED), which concerns this name only. */
export class DnsFailure extends OutreachError {
  constructor(
    message: string,
    hint: string,
    readonly lookedUp: string,
    readonly code: string,
    readonly unreachable: boolean,
  ) {
    super(message, hint);
  }

  /** No answer in time: the server is up (else `unreachable`), the name servers of this name are not answering. */
  get timedOut(): boolean {
    return timeoutCodes.has(this.code);
  }
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ETIMEOUT',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

const timeoutCodes = new Set(['ETIMEOUT', 'ETIMEDOUT']);

/** Answers that mean "no such record" (the name, or the type at the name), not "no answer". */
const absent = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN', 'ENONAME']);
/** Of those, the ones that mean the name itself does not exist (NXDOMAIN), not only a record of that type. */
const noSuchName = new Set(['ENOTFOUND', 'NXDOMAIN', 'ENONAME']);

export interface Lookups {
  txt(name: string): Promise<string[]>;
  mx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  /** The name's IPv4 addresses (A). */
  ipv4(name: string): Promise<string[]>;
  /** The name's IPv4 addresses, or without one its IPv6 addresses (A, else AAAA). */
  addresses(name: string): Promise<string[]>;
  /** Where the answers came from, for messages: "127.0.0.1:5353" or "the system resolver". */
  readonly from: string;
  /** Whether the server has answered any lookup yet. */
  answered(): boolean;
  /** Whether a lookup of `name` was answered "no such name" (NXDOMAIN). */
  missing(name: string): boolean;
}

/** A host name as DNS writes one (letters, digits, hyphens, dots): what --resolver takes besides an address. */
const hostName = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** A name made of numbers alone (127.1, 0x7f000001, 999): the system would read it as an address of its own. */
const numeric = /^(?:(?:\d+|0x[0-9a-f]+)\.?)+$/i;

/** The system's addresses for a name (its hosts file, then its resolver). */
type LookUp = (host: string) => Promise<Array<{ address: string; family: number }>>;
const systemLookUp: LookUp = (host) => lookup(host, { all: true });

/** "127.0.0.1", "127.0.0.1:5353", "[::1]:53", "::1", "localhost:5353", "dns.internal": the address Node's resolver
 * takes, or a usage error naming where the text came from (`--resolver`, or `OUTREACH_RESOLVER=`). A name is looked up
 * by the system, as any program finds a server by name; its IPv4 address is asked when it has one (a DNS server on
 * this machine listens on 127.0.0.1 more often than on ::1, which a hosts file may give localhost first). */
export async function resolverAddress(text: string, from = '--resolver ', lookUp = systemLookUp): Promise<string> {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : plain ? [plain[1]!, plain[2]] : [text, undefined];
  const usage = `give an IP address or a host name, and a port (127.0.0.1:5353, [::1]:53, localhost:5353)`;
  // An IPv6 zone (fe80::1%eth0) is dropped by the resolver: the server would be asked on another interface.
  if (host.includes('%')) throw new UsageError(`${from}${text}: an address with a zone (%) cannot be asked`);
  if (!isIP(host) && (bracketed || !hostName.test(host) || numeric.test(host)))
    throw new UsageError(`${from}${text}: ${usage}`);
  const portNumber = port === undefined ? 53 : Number(port);
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535)
    throw new UsageError(`${from}${text}: the port must be 1-65535`);
  let address = host;
  if (!isIP(host)) {
    // Without its final dot: written so, a name is not looked for in the hosts file.
    const name = host.replace(/\.$/, '');
    let found: Array<{ address: string; family: number }>;
    try {
      found = await lookUp(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new UsageError(
        `${from}${text}: the system could not find ${name} (${code})`,
        "Give the DNS server's IP address instead (127.0.0.1:5353, [::1]:53).",
      );
    }
    const chosen = found.find((a) => a.family === 4) ?? found[0];
    if (!chosen || !isIP(chosen.address))
      throw new UsageError(`${from}${text}: the system found no address for ${name}`);
    address = chosen.address;
  }
  return isIP(address) === 6 ? `[${address}]:${portNumber}` : `${address}:${portNumber}`;
}

/** How long one try of a lookup waits for its answer by default, and how many tries a lookup makes: a check of one
 * domain is a dozen lookups, and a dead resolver should not take minutes. The tries are ours, not c-ares's: its second
 * try waits twice as long as its first (2 s then 4 s, and 7 s in all on this machine), and Node 20 has no maxTimeout to
 * stop it. So is the wait (oneTry). */
export const defaultTryTimeoutMs = 2000;
const tries = 2;

const noAnswer = (code: string, tryTimeoutMs: number) =>
  `no answer in ${tries} tries of ${Number((tryTimeoutMs / 1000).toFixed(3))} s (${code})`;

/** A TXT record as Node gives it holds one character a byte (Latin-1): bytes that are UTF-8 (a rua=mailto: at an
 * international name written as such) are read as UTF-8; any others are left as they came. */
function utf8(text: string): string {
  if (!/[\x80-\xff]/.test(text)) return text;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(text, 'latin1'));
  return decoded.includes('\ufffd') ? text : decoded;
}

/** One try of a lookup, given up after `waitMs` (whole milliseconds, at least one). c-ares waits longer than it is
 * told (a try of 2 s took 3 s, one of 1 s took 2 s: Node 20, c-ares 1.34): the try is ended here, at the wait the user
 * set, on a resolver of its own so that cancelling it cancels nothing else. */
function oneTry<T>(resolver: string | undefined, waitMs: number, ask: (dns: Resolver) => Promise<T>): Promise<T> {
  const dns = new Resolver({ timeout: waitMs, tries: 1 });
  if (resolver) dns.setServers([resolver]);
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' }));
      dns.cancel();
    }, waitMs);
    ask(dns)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}

/** `tryTimeoutMs`: how long one try waits. */
export function lookups(resolver?: string, tryTimeoutMs = defaultTryTimeoutMs): Lookups {
  const waitMs = Math.max(1, Math.round(tryTimeoutMs));
  const once = <T>(ask: (dns: Resolver) => Promise<T>) => oneTry(resolver, waitMs, ask);
  const withRetry = async <T>(query: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await query();
      } catch (error) {
        if (attempt >= tries || !timeoutCodes.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      }
    }
  };
  const from = resolver ?? 'the system resolver';
  // Once the server has answered, a lookup that times out concerns its name (a name server of that zone that does not
  // answer), not the server: that check fails, the others go on.
  let answered = false;
  // A first lookup that times out may be a name whose own name servers are down, not a dead server: asked once, a name
  // that cannot exist (RFC 6761 .invalid, answered by the server itself) tells which.
  let probe: Promise<boolean> | undefined;
  const serverAnswers = () =>
    (probe ??= once((dns) => dns.resolveTxt('outreach-probe.invalid')).then(
      () => true,
      (error: NodeJS.ErrnoException) => !unreachableCodes.has(error.code ?? ''),
    ));
  const missing = new Set<string>();
  const ask = async <T>(name: string, query: () => Promise<T[]>): Promise<T[]> => {
    try {
      const found = await withRetry(query);
      answered = true;
      missing.delete(name); // an answer now outweighs an NXDOMAIN before
      return found;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (absent.has(code)) {
        answered = true;
        if (!noSuchName.has(code)) missing.delete(name);
        else if (missing.size < 1000) missing.add(name);
        return [];
      }
      if (!answered && timeoutCodes.has(code) && (await serverAnswers())) answered = true;
      const unreachable = unreachableCodes.has(code) && !(answered && timeoutCodes.has(code));
      const why = timeoutCodes.has(code) ? noAnswer(code, tryTimeoutMs) : code || (error as Error).message;
      throw new DnsFailure(
        `DNS lookup of ${name} failed at ${from}: ${why}`,
        answered && !unreachable
          ? `The server answered other names: the name servers of ${name} may not be answering.`
          : answered
            ? `The DNS server at ${from} answered earlier lookups, then stopped: is it still running?`
            : resolver
              ? `Is a DNS server answering at ${resolver}?`
              : 'Check the network, or name a DNS server with --resolver.',
        name,
        code,
        unreachable,
      );
    }
  };
  return {
    from,
    answered: () => answered,
    missing: (name) => missing.has(name),
    // A TXT record may come in several strings of up to 255 bytes: one record is their concatenation (RFC 7208 3.3).
    txt: (name) =>
      ask(name, async () => (await once((dns) => dns.resolveTxt(name))).map((parts) => utf8(parts.join('')))),
    mx: (name) => ask(name, () => once((dns) => dns.resolveMx(name))),
    ipv4: (name) => ask(name, () => once((dns) => dns.resolve4(name))),
    // An IPv4 address found is enough: AAAA is asked only without one (some servers fail AAAA questions alone).
    addresses: async (name) => {
      const v4 = await ask(name, () => once((dns) => dns.resolve4(name)));
      return v4.length ? v4 : ask(name, () => once((dns) => dns.resolve6(name)));
    },
  };
}
