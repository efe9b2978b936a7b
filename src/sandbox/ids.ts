// Opaque, hashid-looking record ids from a counter: deterministic for a given state, never colliding; and the random
// names of report files.
import { randomBytes } from 'node:crypto';

const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const base = BigInt(alphabet.length);
const modulus = 1n << 40n;
const multiplier = 0x9e3779b97fn;
const offset = 0x5bd1e995n;

export function opaqueId(counter: number): string {
  // An odd multiplier modulo 2^40 is a bijection, so consecutive counters look unrelated but never collide;
  // 8 base-57 digits hold any value below 2^40.
  let n = (BigInt(counter) * multiplier + offset) % modulus;
  let out = '';
  for (let i = 0; i < 8; i++) {
    out += alphabet[Number(n % base)];
    n /= base;
  }
  return out;
}

/** The multiplier's inverse modulo 2^40 (Newton's iteration: each step doubles the bits that are right). */
const inverse = (() => {
  let x = multiplier;
  for (let i = 0; i < 6; i++) x = (x * (2n - multiplier * x)) % modulus;
  return ((x % modulus) + modulus) % modulus;
})();

/** The counter an id of opaqueId was made from, or undefined for any other string (the seed's hand-written ids). */
export function counterOf(id: string): number | undefined {
  if (id.length !== 8) return undefined;
  let n = 0n;
  for (let i = 7; i >= 0; i--) {
    const digit = alphabet.indexOf(id[i]!);
    if (digit < 0) return undefined;
    n = n * base + BigInt(digit);
  }
  if (n >= modulus) return undefined;
  const counter = (((((n - offset) % modulus) + modulus) % modulus) * inverse) % modulus;
  return counter <= BigInt(Number.MAX_SAFE_INTEGER) && opaqueId(Number(counter)) === id ? Number(counter) : undefined;
}

/** A name nobody can guess (128 random bits, 32 hex digits), for what is fetched by link: report files. */
export function unguessableId(): string {
  return randomBytes(16).toString('hex');
}
