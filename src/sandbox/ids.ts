// Opaque, hashid-looking record ids from a counter: deterministic for a given state, never colliding.
const alphabet = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const base = BigInt(alphabet.length);

export function opaqueId(counter: number): string {
  // An odd multiplier modulo 2^40 is a bijection, so consecutive counters look unrelated but never collide;
  // 8 base-57 digits hold any value below 2^40.
  let n = (BigInt(counter) * 0x9e3779b97fn + 0x5bd1e995n) % (1n << 40n);
  let out = '';
  for (let i = 0; i < 8; i++) {
    out += alphabet[Number(n % base)];
    n /= base;
  }
  return out;
}
