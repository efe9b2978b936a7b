// The common value of a do-not-contact list, a million times a list: a lower-case ASCII email or domain, which
// listValueKey would take as it is. Its test and its hash (hashText) in one pass over its characters: a test of which
// characters it holds, where the plain patterns' full test cost twice the hash.
import { finishHash, mixChar, seedA, seedB } from './text-hash.js';

const dot = 0x2e;
const at = 0x40;

/** The characters no rule of listValueKey rewrites or drops: a-z 0-9 . @ _ % + - (1 for each, by char code). */
const asIs = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789.@_%+-') asIs[c.charCodeAt(0)] = 1;

/**
 * Whether listValueKey would give `text` itself or nothing (neither an email nor a domain); then its hash is left in
 * `hashed` as hashText leaves it, and the caller adds it as it is.
 *
 * Such a text holds only the characters above, does not start with "@" (taken as the domain after it), does not end
 * with "." (the domain written whole), and is not a domain starting with "www." (dropped). Any other rule of
 * classifyDncValue turns on a character it does not hold (a space, a capital, ":", "/", "<"). One that listValueKey
 * would refuse ("acme..com", "ann@acme") is held all the same, for 8 bytes: no row reaches the check with such an
 * email or domain (emailProblem refuses it first), so it stops no one.
 */
export function hashIfAsIs(text: string): boolean {
  let a = seedA;
  let b = seedB;
  let stray = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    stray |= c < 128 ? asIs[c]! ^ 1 : 1;
    a = mixChar(a, c);
    b = mixChar(b, c);
  }
  if (stray || text.length === 0 || text.charCodeAt(0) === at || text.charCodeAt(text.length - 1) === dot) return false;
  if (text.startsWith('www.') && !text.includes('@')) return false;
  finishHash(a, b);
  return true;
}
