// The common value of a do-not-contact list, a million times a list: a lower-case ASCII email or domain, which
// listValueKey would take as it is. Read from the page's JSON bytes in the pass that checks them, its test and its
// hash (hashText's) in one go: no string is built for it, nor read again to be hashed. A test of which characters it
// holds, where the plain patterns' full test cost twice the hash.
import { finishHash, hashed, mixChar, seedA, seedB } from './text-hash.js';

const dot = 0x2e;
const at = 0x40;
const quote = 0x22;
const w = 0x77;

/** The characters no rule of listValueKey rewrites or drops: a-z 0-9 . @ _ % + - (1 for each, by char code). */
const asIs = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789.@_%+-') asIs[c.charCodeAt(0)] = 1;

/** A list's value by its hash (hashText's two halves), read as it stands. */
export class ListValueHash {
  constructor(
    readonly hi: number,
    readonly lo: number,
  ) {}
}

/**
 * Reads a JSON string (from its first byte after the opening quote) that listValueKey would give as it is, or refuse
 * (neither an email nor a domain), as its hash; undefined for any other, with `end` where it stopped. It passes over
 * the characters above only (printable ASCII, never a quote or a backslash), as lean-json.ts's PlainStringReader must.
 *
 * Such a value holds only those characters, does not start with "@" (taken as the domain after it), does not end
 * with "." (the domain written whole), and is not a domain starting with "www." (dropped). Any other rule of
 * classifyDncValue turns on a character it does not hold (a space, a capital, ":", "/", "<"). One that listValueKey
 * would refuse ("acme..com", "ann@acme") is held all the same, for 8 bytes: no row reaches the check with such an
 * email or domain (emailProblem refuses it first), so it stops no one.
 */
export const listValueReader = {
  end: 0,
  read(bytes: Uint8Array, start: number): ListValueHash | undefined {
    let a = seedA;
    let b = seedB;
    let i = start;
    let ats = 0;
    for (let c = bytes[i]; c !== undefined && c < 128 && asIs[c] === 1; c = bytes[++i]) {
      a = mixChar(a, c);
      b = mixChar(b, c);
      if (c === at) ats++;
    }
    this.end = i;
    if (bytes[i] !== quote || i === start || bytes[start] === at || bytes[i - 1] === dot) return undefined;
    if (ats === 0 && startsWithWww(bytes, start, i)) return undefined;
    finishHash(a, b);
    return new ListValueHash(hashed[0]!, hashed[1]!);
  },
};

/** Whether bytes[start, end) starts with "www.". */
function startsWithWww(bytes: Uint8Array, start: number, end: number): boolean {
  return (
    end - start >= 4 &&
    bytes[start] === w &&
    bytes[start + 1] === w &&
    bytes[start + 2] === w &&
    bytes[start + 3] === dot
  );
}
