// A 64-bit hash of a string, as two 32-bit halves, for the sets that hold millions of values as numbers instead of
// strings (the import's email index, the do-not-contact set).

/** Where `hashText` leaves its result: [0] and [1], two 32-bit hashes of one text. A shared array, not a new pair a
 * call: the hash runs for every row of a file. */
export const hashed = new Uint32Array(2);

/** The two halves' seeds. */
export const seedA = 0x9747b28c;
export const seedB = 0x1b873593;

/** One character into a half (murmur-style mixing). Small enough to be inlined into the loops that call it. */
export function mixChar(h: number, c: number): number {
  const m = Math.imul(h ^ c, 0x5bd1e995);
  return m ^ (m >>> 13);
}

/** Both halves' last mixing, left in `hashed`. */
export function finishHash(a: number, b: number): void {
  a = Math.imul(a ^ (a >>> 15), 0x27d4eb2d);
  b = Math.imul(b ^ (b >>> 15), 0x27d4eb2d);
  hashed[0] = a ^ (a >>> 16);
  hashed[1] = b ^ (b >>> 16);
}

/** Two 32-bit hashes of `text` in one pass (two seeds), left in `hashed`. */
export function hashText(text: string): void {
  let a = seedA;
  let b = seedB;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = mixChar(a, c);
    b = mixChar(b, c);
  }
  finishHash(a, b);
}
