// The values of every do-not-contact list of an account, held as numbers: a 64-bit hash, and the number of the list
// that has it only once a second list is seen (open addressing, linear probing, at most 70% full: about 11 MB for a
// million values of one list, 15 MB of several) instead of a million strings. A slot's two halves sit side by side,
// so a probe reads one cache line. A prospect's email is looked up whole, then its domain and each parent domain (a
// list that holds company.com stops a@mail.company.com too).
//
// Values are placed a block at a time (`pending`): placed one by one as each page of a list arrived, between the HTTP
// and JSON work of reading the next, nearly every slot missed the cache, and a million values cost some 0.3 s more.
//
// Two values with one hash (about one pair in 10^7 for a million values and a million rows) make a row look listed:
// the row is then not sent, and goes to the rejected file naming the list, where a person can see it. Never the
// other way round: a listed value is always found.
import { hashed, hashText } from '../text-hash.js';

const fill = 0.7;
/** The most values a size hint sizes the set for at once (about 23 MB of slots); more, and it grows as they come. */
const maxSizeHint = 2_000_000;
/** A slot's list number is 16 bits. */
export const maxDncLists = 0xffff;
/** Values added and not yet placed, at most: 512 KB of hashes. */
const pendingBlock = 65_536;

export class DncSet {
  /** Each slot's hash as [high, low]; both 0 in an empty slot (a value that hashes to 0, 0 is held as 0, 1). */
  private slots: Uint32Array;
  /** Each slot's list (0-based), made when a value of a list other than the first comes. */
  private lists: Uint16Array | undefined;
  private placed = 0;
  /** Hashes added, not yet placed ([high, low] each), all of one list (`pendingList`). */
  private readonly pending = new Uint32Array(2 * pendingBlock);
  private pendingCount = 0;
  private pendingList = 0;

  /** `expected`: how many values will be added (the lists' sizes); the set grows past it when they were short. */
  constructor(expected = 0) {
    // A size read from the service is a hint, never trusted: not a number, negative or absurd, it starts small and grows.
    const hint = Number.isFinite(expected) && expected > 0 ? Math.min(expected, maxSizeHint) : 0;
    this.slots = new Uint32Array(2 * Math.max(64, Math.ceil(hint / fill)));
  }

  private get capacity(): number {
    return this.slots.length / 2;
  }

  /** The values held (a value added twice counts once). */
  get size(): number {
    this.place();
    return this.placed;
  }

  /** Adds a value (already trimmed and lower-cased) of list `list` (0-based); a value already held keeps its first list. */
  add(value: string, list: number): void {
    hashText(value);
    this.addHash(hashed[0]!, hashed[1]!, list);
  }

  /** Adds a value by its hash (`hashText`'s two halves), as a cached list holds it. */
  addHash(hi: number, lo: number, list: number): void {
    if (list >= maxDncLists) throw new RangeError(`more than ${maxDncLists} do-not-contact lists`);
    if (list !== this.pendingList || this.pendingCount === pendingBlock) this.place();
    this.pendingList = list;
    this.pending[2 * this.pendingCount] = hi;
    this.pending[2 * this.pendingCount + 1] = lo;
    this.pendingCount++;
  }

  /** The values added since the last call, each in its slot (in the order added: the first list keeps a value). */
  private place(): void {
    const { pending, pendingCount, pendingList: list } = this;
    this.pendingCount = 0;
    for (let i = 0; i < pendingCount; i++) {
      if (this.placed + 1 > this.capacity * fill) this.grow();
      const hi = pending[2 * i]!;
      const lo = hi === 0 && pending[2 * i + 1] === 0 ? 1 : pending[2 * i + 1]!;
      const slot = this.slotOf(hi, lo);
      if (this.slots[2 * slot] !== 0 || this.slots[2 * slot + 1] !== 0) continue;
      this.slots[2 * slot] = hi;
      this.slots[2 * slot + 1] = lo;
      if (list > 0) (this.lists ??= new Uint16Array(this.capacity))[slot] = list;
      this.placed++;
    }
  }

  /** The list (0-based) holding this email, its domain or a parent domain, or -1. `email` is in the form
   * `canonicalDncKey` gives (lower-case, the domain in ASCII). */
  listOfEmail(email: string): number {
    const whole = this.find(email);
    if (whole >= 0) return whole;
    let domain = email.slice(email.lastIndexOf('@') + 1);
    for (;;) {
      const found = this.find(domain);
      if (found >= 0) return found;
      const dot = domain.indexOf('.');
      // Not the top-level domain alone: no list means every address under "com".
      if (dot < 0 || domain.indexOf('.', dot + 1) < 0) return -1;
      domain = domain.slice(dot + 1);
    }
  }

  /** The list (0-based) holding exactly this value, or -1. */
  find(value: string): number {
    if (this.pendingCount) this.place();
    hashText(value);
    const hi = hashed[0]!;
    const lo = hi === 0 && hashed[1] === 0 ? 1 : hashed[1]!;
    const slot = this.slotOf(hi, lo);
    if (this.slots[2 * slot] === 0 && this.slots[2 * slot + 1] === 0) return -1;
    return this.lists?.[slot] ?? 0;
  }

  /** The slot holding this hash, or the empty slot where it would go. */
  private slotOf(hi: number, lo: number): number {
    const { slots } = this;
    const size = slots.length / 2;
    // The start from the high half, spread over the table (multiply, not modulo: any size will do).
    let slot = Math.floor((hi / 0x1_0000_0000) * size);
    for (;;) {
      const h = slots[2 * slot]!;
      const l = slots[2 * slot + 1]!;
      if ((h === hi && l === lo) || (h === 0 && l === 0)) return slot;
      slot = slot + 1 === size ? 0 : slot + 1;
    }
  }

  /** Twice the slots, every value moved (the whole hash is kept, so where each goes is known). */
  private grow(): void {
    const { slots, lists } = this;
    this.slots = new Uint32Array(slots.length * 2);
    this.lists = lists && new Uint16Array(this.capacity);
    for (let i = 0; i < slots.length / 2; i++) {
      const hi = slots[2 * i]!;
      const lo = slots[2 * i + 1]!;
      if (hi === 0 && lo === 0) continue;
      const slot = this.slotOf(hi, lo);
      this.slots[2 * slot] = hi;
      this.slots[2 * slot + 1] = lo;
      if (lists && this.lists) this.lists[slot] = lists[i]!;
    }
  }
}
