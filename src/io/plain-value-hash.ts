// The common value of a do-not-contact list, a million times a list: a plain lower-case ASCII email or domain. Its
// test (isPlainListValue) and its hash (hashText) in one pass over its characters, where a pattern test and a hash
// loop took two.
import { finishHash, mixChar, seedA, seedB } from './text-hash.js';

const dot = 0x2e;
const at = 0x40;
const hyphen = 0x2d;
const isLetter = (c: number) => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** What else an address's local part may hold here: _ % + - (the plain pattern's). */
const isLocalMark = (c: number) => c === 0x5f || c === 0x25 || c === 0x2b || c === hyphen;

/**
 * Whether `text` is a plain list value (isPlainListValue); when it is, its hash is left in `hashed` as hashText
 * leaves it.
 *
 * A domain here is labels of a-z, 0-9 and hyphens, 1 to 63 characters, neither starting nor ending with a hyphen,
 * at least two of them, the last starting with a letter; an email's local part is runs of a-z, 0-9 and _ % + -
 * joined by single dots.
 */
export function hashIfPlain(text: string): boolean {
  let a = seedA;
  let b = seedB;
  // Read as a domain from the start, and as a local part until an @.
  let local = true;
  let afterDot = true; // in the local part: at its start or just after a dot
  let atSeen = false;
  let labels = 0; // labels ended by a dot
  let labelLength = 0;
  let first = 0; // the current label's first character
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = mixChar(a, c);
    b = mixChar(b, c);
    if (c === at) {
      if (atSeen || !local || afterDot) return false;
      atSeen = true;
      labels = labelLength = 0;
      continue;
    }
    if (!atSeen) {
      if (c === dot) {
        if (afterDot) local = false;
        afterDot = true;
      } else {
        afterDot = false;
        if (!isLetter(c) && !isDigit(c) && !isLocalMark(c)) return false;
      }
    }
    if (c === dot) {
      if (labelLength === 0 || labelLength > 63 || first === hyphen || last === hyphen) {
        if (atSeen) return false;
        labels = -1; // not a domain; perhaps still a local part
      } else if (labels >= 0) labels++;
      labelLength = 0;
    } else if (isLetter(c) || isDigit(c) || c === hyphen) {
      if (labelLength++ === 0) first = c;
      last = c;
    } else if (atSeen) return false;
    else labels = -1;
  }
  if (labels < 1 || labelLength === 0 || labelLength > 63 || !isLetter(first) || last === hyphen) return false;
  if (!atSeen && text.startsWith('www.')) return false;
  finishHash(a, b);
  return true;
}
