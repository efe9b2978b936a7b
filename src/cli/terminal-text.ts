// What reaches the user's terminal (DESIGN.md conventions 9 and 15). Every write of the CLI to stdout and stderr goes
// through a guard (runCli installs it) that
// - replaces the API key with *** wherever it appears, on a terminal or piped, even split across two writes;
// - on a terminal, and on stderr wherever it goes, shows control characters instead of letting the terminal obey them:
//   text from the service, a teammate or a webhook delivery cannot set the window title, clear the screen, hide text
//   or write the clipboard.
// Piped stdout stays exact data (only the key is masked). Our own styling (bold table headers, the spinner) passes
// the guard marked with a per-process secret no value can forge (styled), or through the spinner's own path
// (unsanitized).
import type { Writable } from 'node:stream';
import type { Context } from '../context.js';
import { StringDecoder } from 'node:string_decoder';

import { visible } from '../visible-text.js';

export { visible };

// Our own escape sequences (chalk's bold) cross a sanitizing guard marked with this; made on first use, so a command
// that styles nothing pays nothing.
let styleMark: string | undefined;
const styleMarkOf = () => (styleMark ??= `\uE000${[...crypto.getRandomValues(new Uint32Array(3))].join('.')}\uE001`);

const unmark = (text: string) => (styleMark && text.includes(styleMark) ? text.split(styleMark).join('\u001b') : text);

/** Marks the escape sequences of text the CLI styled itself (its values already `visible`), so a terminal guard lets
 * them through while it shows every other control character. */
export function styled(text: string): string {
  return text.includes('\u001b') ? text.split('\u001b').join(styleMarkOf()) : text;
}

const mask = Buffer.from('***');
const isWordByte = (b: number | undefined) =>
  b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));
const empty = Buffer.alloc(0);

/**
 * Masks one secret in a stream of bytes. A key of 12 characters or more is masked wherever it appears; a shorter one
 * (a typo, a test value) only where it stands alone, not inside a word: a key "x" must not turn /v1/unibox into
 * /v1/unibo***. The bytes that may begin the key at the end of a write are held until the next write (or flush).
 */
class SecretMask {
  private carry = empty;
  /** The last byte let through before the carry: whether a short key starts a word. */
  private before: number | undefined;
  private readonly whole: boolean;
  constructor(private readonly secret: Buffer) {
    this.whole = secret.length >= 12;
  }

  push(chunk: Buffer, final: boolean): Buffer {
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const { secret } = this;
    const n = buf.length;
    const parts: Buffer[] = [];
    let from = 0;
    let at = 0;
    let hold = n;
    for (;;) {
      const found = buf.indexOf(secret, at);
      if (found === -1) break;
      const end = found + secret.length;
      if (!this.whole) {
        if (isWordByte(found === 0 ? this.before : buf[found - 1])) {
          at = found + 1;
          continue;
        }
        if (end === n && !final) {
          hold = found; // what comes next decides whether it stands alone
          break;
        }
        if (isWordByte(buf[end])) {
          at = found + 1;
          continue;
        }
      }
      parts.push(buf.subarray(from, found), mask);
      from = at = end;
    }
    if (hold === n && !final) {
      // The earliest start of a key cut by the end of this write.
      for (let start = Math.max(from, n - secret.length + 1); start < n; start++)
        if (buf[start] === secret[0] && buf.subarray(start).equals(secret.subarray(0, n - start))) {
          hold = start;
          break;
        }
    }
    if (hold > 0) this.before = buf[hold - 1];
    this.carry = hold < n ? Buffer.from(buf.subarray(hold)) : empty;
    if (from === 0 && hold === n) return buf;
    parts.push(buf.subarray(from, hold));
    return Buffer.concat(parts);
  }
}

/** The keys this run knows (the one it sends, a sandbox's): masked in everything it prints. */
export class Secrets {
  readonly list: Buffer[] = [];

  add(secret: string): void {
    if (!secret) return;
    const bytes = Buffer.from(secret);
    if (!this.list.some((known) => known.equals(bytes))) this.list.push(bytes);
  }

  /** The text with every known key masked. */
  redact(text: string): string {
    if (!this.list.length) return text;
    let bytes: Buffer = Buffer.from(text);
    for (const secret of this.list) bytes = new SecretMask(secret).push(bytes, true);
    return bytes.toString();
  }
}

/** Masks the keys in one output stream, in order, whichever path (sanitized or not) a write takes. */
class StreamMask {
  private readonly masks: SecretMask[] = [];
  constructor(private readonly secrets: Secrets) {}

  push(chunk: Buffer, final = false): Buffer {
    // A key learnt mid-run (the client connects after the first lines were written) is masked from then on.
    while (this.masks.length < this.secrets.list.length)
      this.masks.push(new SecretMask(this.secrets.list[this.masks.length]!));
    let out = chunk;
    for (const mask of this.masks) out = mask.push(out, final);
    return out;
  }
}

const asBuffer = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

type WriteCallback = (error?: Error | null) => void;
type Write = (chunk: unknown, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback) => boolean;

const unsanitizedOf = new WeakMap<Writable, Writable>();

/**
 * The stream with writes guarded. It stays the stream itself for everything else (events such as 'drain' and
 * 'error', isTTY, columns): only write and end are taken over, and a write passes on at once, so backpressure and
 * the order of writes are the stream's own.
 */
export function guardStream(
  target: Writable,
  secrets: Secrets,
  /** Show control characters (a terminal, or stderr wherever it goes). */
  showControls: boolean,
): { stream: Writable; flush(): void } {
  const mask = new StreamMask(secrets);
  let decoder: StringDecoder | undefined;
  const passOn = (out: Buffer | string, callback?: WriteCallback): boolean => {
    if (out.length) return target.write(out, callback);
    if (callback) queueMicrotask(() => callback());
    return !target.writableNeedDrain;
  };
  const makeWrite =
    (sanitize: boolean): Write =>
    (chunk, encoding, callback) => {
      if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
      const enc = encoding;
      const shows = sanitize && showControls;
      // Styled text reaching a stream that is not a terminal (it should not): its escapes as chalk wrote them.
      if (!shows && styleMark && typeof chunk === 'string') chunk = unmark(chunk);
      // Piped with no key to hide: exact bytes, no copy.
      if (!shows && !secrets.list.length) return passOn(chunk as Buffer | string, callback as WriteCallback);
      let bytes: Buffer;
      if (shows) {
        let text: string;
        if (typeof chunk === 'string') text = decoder ? decoder.write(Buffer.from(chunk, enc)) : chunk;
        else text = (decoder ??= new StringDecoder('utf8')).write(asBuffer(chunk as Uint8Array));
        bytes = Buffer.from(unmark(visible(text, { lines: true })));
      } else bytes = typeof chunk === 'string' ? Buffer.from(chunk, enc) : asBuffer(chunk as Uint8Array);
      return passOn(secrets.list.length ? mask.push(bytes) : bytes, callback as WriteCallback);
    };
  const flush = () => {
    const rest = mask.push(empty, true);
    if (rest.length) target.write(rest);
  };
  const proxy = (sanitize: boolean) => {
    const write = makeWrite(sanitize);
    const end = (...args: unknown[]) => {
      flush();
      return (target.end as (...a: unknown[]) => Writable)(...args);
    };
    // A library may wrap write (ora does, to clear its spinner before other text): its wrapper stays on this view of
    // the stream, calling ours, which calls the stream's own.
    const own: Record<string | symbol, unknown> = { write, end };
    return new Proxy(target, {
      get(object, property) {
        if (Object.hasOwn(own, property)) return own[property];
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? value.bind(object) : value;
      },
      set(object, property, value) {
        if (Object.hasOwn(own, property)) own[property] = value;
        else Reflect.set(object, property, value, object);
        return true;
      },
    });
  };
  const stream = proxy(true);
  unsanitizedOf.set(stream, proxy(false));
  return { stream, flush };
}

/** For a writer that draws with escape sequences of its own (the spinner): the key is still masked, nothing else
 * changes; text it takes from elsewhere must be made `visible` first. Another stream is returned as it is. */
export function unsanitized(stream: Writable): Writable {
  return unsanitizedOf.get(stream) ?? stream;
}

/** The Context with its stdout and stderr guarded (each guard made when the stream is first asked for), and `flush`
 * for the end of the run, which lets out bytes held back because they might have begun a key. */
export function guardContext(ctx: Context, secrets: Secrets): { ctx: Context; flush(): void } {
  let stdout: ReturnType<typeof guardStream> | undefined;
  let stderr: ReturnType<typeof guardStream> | undefined;
  // Copied as descriptors, not spread, so the process Context's getters still run only when a stream is asked for.
  const guarded = Object.defineProperties({}, Object.getOwnPropertyDescriptors(ctx)) as Context;
  Object.defineProperties(guarded, {
    stdout: { enumerable: true, get: () => (stdout ??= guardStream(ctx.stdout, secrets, ctx.stdoutIsTTY)).stream },
    // stderr carries messages, never data: shown safe wherever it goes (2>&1 | tee log reaches a terminal all the same).
    stderr: { enumerable: true, get: () => (stderr ??= guardStream(ctx.stderr, secrets, true)).stream },
  });
  return {
    ctx: guarded,
    flush() {
      stdout?.flush();
      stderr?.flush();
    },
  };
}
