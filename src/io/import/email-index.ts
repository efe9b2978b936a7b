// Remembers which emails a file already had, and on which row, in flat memory: 48-bit hashes in typed arrays
// (open addressing, linear probing) instead of a Set of strings. 10 bytes a slot at <= 85% load, growing by half:
// about 12.5 MB for 1 million rows (it is the import's only memory that grows with the file).
// A new email is compared only with the entries on its probe path (~22 at 85% load), so two different emails are taken
// for one with probability ~22n/2^48: about 1e-7 for a million rows.

function hash32(text: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x5bd1e995);
    h ^= h >>> 13;
  }
  h = Math.imul(h ^ (h >>> 15), 0x27d4eb2d);
  return (h ^ (h >>> 16)) >>> 0;
}

const initialSlots = 1 << 16;

export class EmailIndex {
  private high: Uint32Array;
  private low: Uint16Array;
  /** Row of the first occurrence; 0 marks an empty slot. */
  private rows: Uint32Array;
  private count = 0;

  /** `expected` sizes the table for that many emails at once (it still grows past them). */
  constructor(expected = 0) {
    const slots = Math.max(initialSlots, Math.ceil(expected / 0.8));
    this.high = new Uint32Array(slots);
    this.low = new Uint16Array(slots);
    this.rows = new Uint32Array(slots);
  }

  /** Records `email` as seen on `row` unless it was seen before; returns the earlier row, or undefined. */
  firstRowOf(email: string, row: number): number | undefined {
    const key = email.toLowerCase();
    const hi = hash32(key, 0x9747b28c);
    const lo = hash32(key, 0x1b873593) >>> 16;
    const found = this.find(hi, lo);
    if (this.rows[found] !== 0) return this.rows[found];
    this.rows[found] = row;
    this.high[found] = hi;
    this.low[found] = lo;
    this.count++;
    if (this.count * 20 > this.rows.length * 17) this.grow();
    return undefined;
  }

  /** The row where `email` first appeared, without recording anything. */
  lookup(email: string): number | undefined {
    const key = email.toLowerCase();
    const slot = this.find(hash32(key, 0x9747b28c), hash32(key, 0x1b873593) >>> 16);
    return this.rows[slot] || undefined;
  }

  get size(): number {
    return this.count;
  }

  private find(hi: number, lo: number): number {
    const size = this.rows.length;
    let slot = ((hi ^ Math.imul(lo, 0x9e3779b1)) >>> 0) % size;
    while (this.rows[slot] !== 0 && (this.high[slot] !== hi || this.low[slot] !== lo))
      slot = slot + 1 === size ? 0 : slot + 1;
    return slot;
  }

  private grow(): void {
    const { high, low, rows } = this;
    const size = Math.ceil(rows.length * 1.5);
    this.high = new Uint32Array(size);
    this.low = new Uint16Array(size);
    this.rows = new Uint32Array(size);
    for (let i = 0; i < rows.length; i++) {
      if (rows[i] === 0) continue;
      const slot = this.find(high[i]!, low[i]!);
      this.high[slot] = high[i]!;
      this.low[slot] = low[i]!;
      this.rows[slot] = rows[i]!;
    }
  }
}
