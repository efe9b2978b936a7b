// Remembers which emails a file already had, and on which row, in flat memory: a 40-bit fingerprint and a 24-bit row
// packed into 8 bytes a slot (two typed arrays, open addressing, linear probing) instead of a Set of strings. Sized up
// front from the row estimate for 90% load: about 9 MB for 1 million rows, the import's only memory that grows with the
// file. (48-bit hashes with 32-bit rows took 10 bytes a slot at 80%: 12.9 MB.)
//
// Where an email's probe starts comes from 24 other bits of its hash, so two emails with one fingerprint (about one
// pair in two million-row files) are compared only when one lies on the other's short probe path: a different email
// is taken for a duplicate with probability ~5n/2^40, about 5e-6 for a million rows. (Starting from the fingerprint's
// own bits, as before, compares every such pair: 1.8e-3 for a million rows even with 48 bits.) A row so taken is not
// lost: it goes to the rejected file naming the row it was taken for.
//
// Those start bits are not kept, so a table cannot be rehashed: once full (93% for one sized from an estimate, 75% for others, where
// a miss costs fewer probes) it is kept as it is, and a new table takes the new emails; lookups try each table, the
// oldest first. The new table holds half as many again as there are when the first was sized from an estimate (which
// was then a little short), as many again when it was not. A file past 16,777,215 rows moves
// a table's rows to a 32-bit array of their own.

import { hashed, hashText } from '../text-hash.js';

const initialSlots = 1 << 16;
const rowMask = 0xff_ffff;

class Table {
  /** `hashed[0]`. */
  readonly keys: Uint32Array;
  /** The top 8 bits of `hashed[1]` over the row (0 marks an empty slot; a row past the mask is kept in `wideRows`). */
  readonly tags: Uint32Array;
  wideRows: Uint32Array | undefined;
  count = 0;

  /** `fillTo` is the share of slots it takes before it is full. */
  constructor(
    slots: number,
    private readonly fillTo: number,
  ) {
    this.keys = new Uint32Array(slots);
    this.tags = new Uint32Array(slots);
  }

  get full(): boolean {
    return this.count > this.tags.length * this.fillTo;
  }

  /** The slot holding `hashed[0]`/`hashed[1]`, or the empty slot where they would go. */
  find(): number {
    const { keys, tags } = this;
    const size = tags.length;
    const key = hashed[0]!;
    const extra = hashed[1]! >>> 24;
    let slot = Math.floor(((hashed[1]! & rowMask) * size) / 0x100_0000);
    while (tags[slot] !== 0 && (keys[slot] !== key || tags[slot]! >>> 24 !== extra))
      slot = slot + 1 === size ? 0 : slot + 1;
    return slot;
  }

  rowAt(slot: number): number {
    return this.wideRows ? this.wideRows[slot]! : this.tags[slot]! & rowMask;
  }

  put(slot: number, row: number): void {
    if (row > rowMask && !this.wideRows) this.wideRows = this.tags.map((tag) => tag & rowMask);
    this.keys[slot] = hashed[0]!;
    this.tags[slot] = ((hashed[1]! & 0xff00_0000) | Math.min(row, rowMask)) >>> 0;
    if (this.wideRows) this.wideRows[slot] = row;
    this.count++;
  }
}

export class EmailIndex {
  private readonly tables: Table[];
  private readonly growth: number;
  private count = 0;
  private lastSlot = 0;

  /** `expected` sizes the table for that many emails at once (it still grows past them). */
  constructor(expected = 0) {
    this.tables = [new Table(Math.max(initialSlots, Math.ceil(expected / 0.9)), expected > 0 ? 0.93 : 0.75)];
    this.growth = expected > 0 ? 0.5 : 1;
  }

  /** Records `key` as seen on `row` unless it was seen before; returns the earlier row, or undefined. `key`: the email
   * in one form however it was written (canonicalDncKey: case, a domain in Unicode or ASCII, müller.de or
   * xn--mller-kva.de). */
  firstRowOf(key: string, row: number): number | undefined {
    hashText(key);
    const earlier = this.find();
    if (earlier !== undefined) return earlier;
    let table = this.tables.at(-1)!;
    let slot = this.lastSlot;
    if (table.full) {
      this.tables.push((table = new Table(Math.max(initialSlots, Math.ceil((this.count * this.growth) / 0.75)), 0.75)));
      slot = table.find();
    }
    table.put(slot, row);
    this.count++;
    return undefined;
  }

  /** The row where `email` first appeared, without recording anything. */
  lookup(key: string): number | undefined {
    hashText(key);
    return this.find();
  }

  get size(): number {
    return this.count;
  }

  /** The earlier row of the hashed email; when there is none, `lastSlot` is where the newest table would keep it. */
  private find(): number | undefined {
    for (const table of this.tables) {
      const slot = table.find();
      if (table.tags[slot] !== 0) return table.rowAt(slot);
      this.lastSlot = slot;
    }
    return undefined;
  }
}
