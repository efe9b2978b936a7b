// A JSON answer read from its bytes, keeping only the object members a reader needs. Reading a do-not-contact list of
// a million values is 10,000 pages of 14 KB: JSON.parse built each page's text and then 24 KB of objects (every
// item's id, type, createdAt and addedBy), and with eight pages under way enough of it outlived the young generation
// to grow the heap by some 35 MB. Here the bytes are checked as JSON.parse checks the text they decode to, and only
// the members named are built.
//
// It accepts exactly the answers JSON.parse accepts (their bytes decoded as UTF-8, as the client decodes answers)
// and gives the value JSON.parse gives, less every member whose name is not kept; a document nested deeper than
// `maxDepth` is given whole, as JSON.parse builds it (its readers take the members they read and ignore the rest).
// Strings with escapes or bytes past ASCII, which the client never needs to be fast, are handed to JSON.parse itself.
// A kept member may have a reader of its own (PlainStringReader), which reads its string from the bytes in the pass that
// checks them, instead of a string being built and read again: a do-not-contact value is hashed as it is read.

/** The answer is not JSON: JSON.parse would have thrown. */
export const notJson = Symbol('not JSON');

/** Deeper than this, the answer is given whole, as JSON.parse builds it (it has no depth limit of its own). */
const maxDepth = 256;

const invalid = Symbol('invalid');
const tooDeep = Symbol('too deep');

/** Reads a kept member's string value from the answer's bytes, in the pass that checks them, where it can. */
export interface PlainStringReader {
  /** The member's value when the string whose first byte is bytes[start] (after its opening quote) is one this reader
   * takes, with `end` left at the index of the byte it stopped at, which must be the closing quote; undefined for any
   * other string, which is then read as usual. It passes over nothing but printable ASCII other than `"` and `\`, so
   * a string it takes is one JSON.parse reads as those very characters. */
  read(bytes: Uint8Array, start: number): unknown;
  end: number;
}

/** The member names kept, at any depth. */
export class KeptMembers {
  /** The names by their length: most keys of an answer have a length no kept name has. */
  private readonly byLength: Array<string[] | undefined> = [];
  private readonly names: ReadonlySet<string>;
  private readonly readers: ReadonlyMap<string, PlainStringReader>;

  constructor(
    names: readonly string[],
    /** Readers of some kept members' strings, by member name. */
    readers: Readonly<Record<string, PlainStringReader>> = {},
  ) {
    this.readers = new Map(Object.entries(readers));
    for (const name of names) {
      // Plain ASCII, so a key is matched by its bytes; never "__proto__", which assigning would not keep as a member.
      if (!/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/.test(name) || name === '__proto__')
        throw new Error(`cannot keep a member named ${JSON.stringify(name)}`);
      (this.byLength[name.length] ??= []).push(name);
    }
    this.names = new Set(names);
  }

  /** The kept name written as bytes[start, end) (ASCII, no escapes), or undefined. */
  matchBytes(bytes: Uint8Array, start: number, end: number): string | undefined {
    const candidates = this.byLength[end - start];
    if (candidates === undefined) return undefined;
    outer: for (const name of candidates) {
      for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) !== bytes[start + i]) continue outer;
      return name;
    }
    return undefined;
  }

  /** The reader of a kept member's strings, if it has one. */
  readerOf(name: string): PlainStringReader | undefined {
    return this.readers.get(name);
  }

  /** The kept name equal to a decoded key, or undefined. */
  match(key: string): string | undefined {
    return this.names.has(key) ? key : undefined;
  }
}

/** The value of a JSON answer with only the kept members in its objects, or `notJson`. */
export function parseJsonKeeping(bytes: Buffer, keep: KeptMembers): unknown {
  const reader = new Reader(bytes, keep);
  try {
    return reader.document();
  } catch (error) {
    if (error === invalid) return notJson;
    if (error !== tooDeep) throw error;
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return notJson;
  }
}

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
const isHex = (b: number | undefined) =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
/** The characters that may follow a backslash, other than u: " \ / b f n r t. */
const shortEscapes = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

class Reader {
  private pos = 0;
  /** The answer as latin1 text, made when the first string is built: a string built is a slice of it (which V8
   * makes without a copy), not a text decoded on its own (a page's hundred values cost 60% more that way). A slice
   * keeps the whole text alive while it lives: right for values used and dropped at once, as the DNC read does. */
  private text: string | undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly keep: KeptMembers,
  ) {}

  document(): unknown {
    this.space();
    const value = this.value(0, true);
    this.space();
    if (this.pos !== this.bytes.length) throw invalid;
    return value;
  }

  /** The value at pos, built when `build` (else only checked). */
  private value(depth: number, build: boolean): unknown {
    if (depth > maxDepth) throw tooDeep;
    switch (this.bytes[this.pos]) {
      case 0x7b:
        return this.object(depth, build);
      case 0x5b:
        return this.array(depth, build);
      case 0x22:
        return this.string(build);
      case 0x74:
        return this.literal('true', true);
      case 0x66:
        return this.literal('false', false);
      case 0x6e:
        return this.literal('null', null);
      default:
        return this.number(build);
    }
  }

  private object(depth: number, build: boolean): Record<string, unknown> | undefined {
    const out: Record<string, unknown> | undefined = build ? {} : undefined;
    this.pos++;
    this.space();
    if (this.bytes[this.pos] === 0x7d) return (this.pos++, out);
    for (;;) {
      if (this.bytes[this.pos] !== 0x22) throw invalid;
      const name = this.key(build);
      this.space();
      if (this.bytes[this.pos++] !== 0x3a) throw invalid;
      this.space();
      const reader = name === undefined ? undefined : this.keep.readerOf(name);
      const value = reader ? this.read(reader, depth) : this.value(depth + 1, name !== undefined);
      if (out && name !== undefined) out[name] = value; // a name given twice: the last, as JSON.parse
      this.space();
      const next = this.bytes[this.pos++];
      if (next === 0x7d) return out;
      if (next !== 0x2c) throw invalid;
      this.space();
    }
  }

  private array(depth: number, build: boolean): unknown[] | undefined {
    const out: unknown[] | undefined = build ? [] : undefined;
    this.pos++;
    this.space();
    if (this.bytes[this.pos] === 0x5d) return (this.pos++, out);
    for (;;) {
      const value = this.value(depth + 1, build);
      out?.push(value);
      this.space();
      const next = this.bytes[this.pos++];
      if (next === 0x5d) return out;
      if (next !== 0x2c) throw invalid;
      this.space();
    }
  }

  /** A member's value at pos, by its reader when it is a string the reader takes. */
  private read(reader: PlainStringReader, depth: number): unknown {
    if (this.bytes[this.pos] === 0x22) {
      const made = reader.read(this.bytes, this.pos + 1);
      if (made !== undefined) {
        if (this.bytes[reader.end] !== 0x22) throw new Error('a string reader stopped before the closing quote');
        this.pos = reader.end + 1;
        return made;
      }
    }
    return this.value(depth + 1, true);
  }

  /** A member's name, when it is kept (and its object built). */
  private key(build: boolean): string | undefined {
    const start = this.pos + 1;
    const plain = this.skipString();
    if (!build) return undefined;
    if (plain) return this.keep.matchBytes(this.bytes, start, this.pos - 1);
    return this.keep.match(JSON.parse(this.bytes.toString('utf8', start - 1, this.pos)) as string);
  }

  private string(build: boolean): string | undefined {
    const start = this.pos + 1;
    const plain = this.skipString();
    if (!build) return undefined;
    // ASCII without escapes is the string as it stands; anything else is read by JSON.parse.
    if (plain) return (this.text ??= this.bytes.toString('latin1')).slice(start, this.pos - 1);
    return JSON.parse(this.bytes.toString('utf8', start - 1, this.pos)) as string;
  }

  /** Past the string at pos (its closing quote); whether it is ASCII without escapes. */
  private skipString(): boolean {
    const { bytes } = this;
    let at = this.pos + 1;
    let plain = true;
    for (;;) {
      const b = bytes[at];
      if (b === 0x22) break;
      if (b === undefined || b < 0x20) throw invalid;
      if (b === 0x5c) {
        plain = false;
        const escaped = bytes[at + 1];
        if (escaped === 0x75) {
          for (let i = 2; i < 6; i++) if (!isHex(bytes[at + i])) throw invalid;
          at += 6;
        } else if (escaped !== undefined && shortEscapes.has(escaped)) at += 2;
        else throw invalid;
        continue;
      }
      if (b >= 0x80) plain = false;
      at++;
    }
    this.pos = at + 1;
    return plain;
  }

  private number(build: boolean): number | undefined {
    const { bytes } = this;
    const start = this.pos;
    let at = start;
    if (bytes[at] === 0x2d) at++;
    if (bytes[at] === 0x30) at++;
    else if (isDigit(bytes[at])) while (isDigit(bytes[at])) at++;
    else throw invalid;
    if (bytes[at] === 0x2e) {
      if (!isDigit(bytes[++at])) throw invalid;
      while (isDigit(bytes[at])) at++;
    }
    if (bytes[at] === 0x65 || bytes[at] === 0x45) {
      at++;
      if (bytes[at] === 0x2b || bytes[at] === 0x2d) at++;
      if (!isDigit(bytes[at])) throw invalid;
      while (isDigit(bytes[at])) at++;
    }
    this.pos = at;
    return build ? Number(bytes.toString('latin1', start, at)) : undefined;
  }

  private literal<T>(word: string, value: T): T {
    for (let i = 0; i < word.length; i++) if (this.bytes[this.pos + i] !== word.charCodeAt(i)) throw invalid;
    this.pos += word.length;
    return value;
  }

  /** Past JSON's whitespace: space, tab, line feed, carriage return. */
  private space(): void {
    const { bytes } = this;
    let at = this.pos;
    let b = bytes[at];
    if (b === undefined || b > 0x20) return; // most answers have none
    while (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) b = bytes[++at];
    this.pos = at;
  }
}
