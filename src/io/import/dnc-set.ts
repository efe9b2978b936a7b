// The values of every do-not-contact list of an account, held as numbers: a 64-bit hash and the number of the list
// that has it, 10 bytes a slot (open addressing, linear probing, at most 65% full: about 15 MB for a million values)
// instead of a million strings. A prospect's email is looked up whole, then its domain and each parent domain (a list
// that holds company.com stops a@mail.company.com too).
//
// Two values with one hash (about one pair in 10^7 for a million values and a million rows) make a row look listed:
// the row is then not sent, and goes to the rejected file naming the list, where a person can see it. Never the
// other way round: a listed value is always found.
import { hashed, hashText } from '../text-hash.js';

const fill = 0.65;
/** The most values a size hint sizes the set for at once (about 30 MB of slots); more, and it grows as they come. */
const maxSizeHint = 2_000_000;
/** A slot's list number is 16 bits, 0 marking an empty slot. */
export const maxDncLists = 0xffff;

export class DncSet {
  private hi: Uint32Array;
  private lo: Uint32Array;
  /** 1 + the list's number, 0 when the slot is empty. */
  private lists: Uint16Array;
  size = 0;

  /** `expected`: how many values will be added (the lists' sizes); the set grows past it when they were short. */
  constructor(expected = 0) {
    // A size read from the service is a hint, never trusted: not a number, negative or absurd, it starts small and grows.
    const hint = Number.isFinite(expected) && expected > 0 ? Math.min(expected, maxSizeHint) : 0;
    const slots = Math.max(64, Math.ceil(hint / fill));
    this.hi = new Uint32Array(slots);
    this.lo = new Uint32Array(slots);
    this.lists = new Uint16Array(slots);
  }

  /** Adds a value (already trimmed and lower-cased) of list `list` (0-based); a value already held keeps its first list. */
  add(value: string, list: number): void {
    hashText(value);
    this.addHash(hashed[0]!, hashed[1]!, list);
  }

  /** Adds a value by its hash (`hashText`'s two halves), as a cached list holds it. */
  addHash(hi: number, lo: number, list: number): void {
    if (list >= maxDncLists) throw new RangeError(`more than ${maxDncLists} do-not-contact lists`);
    if (this.size + 1 > this.lists.length * fill) this.grow();
    const slot = this.slotOf(hi, lo);
    if (this.lists[slot]) return;
    this.hi[slot] = hi;
    this.lo[slot] = lo;
    this.lists[slot] = list + 1;
    this.size++;
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
    hashText(value);
    return this.lists[this.slotOf(hashed[0]!, hashed[1]!)]! - 1;
  }

  /** The slot holding this hash, or the empty slot where it would go. */
  private slotOf(hi: number, lo: number): number {
    const { lists } = this;
    const size = lists.length;
    // The start from the high half, spread over the table (multiply, not modulo: any size will do).
    let slot = Math.floor((hi / 0x1_0000_0000) * size);
    while (lists[slot] !== 0 && (this.hi[slot] !== hi || this.lo[slot] !== lo)) slot = slot + 1 === size ? 0 : slot + 1;
    return slot;
  }

  /** Twice the slots, every value moved (the whole hash is kept, so where each goes is known). */
  private grow(): void {
    const { hi, lo, lists } = this;
    const slots = lists.length * 2;
    this.hi = new Uint32Array(slots);
    this.lo = new Uint32Array(slots);
    this.lists = new Uint16Array(slots);
    for (let i = 0; i < lists.length; i++) {
      if (!lists[i]) continue;
      const slot = this.slotOf(hi[i]!, lo[i]!);
      this.hi[slot] = hi[i]!;
      this.lo[slot] = lo[i]!;
      this.lists[slot] = lists[i]!;
    }
  }
}
