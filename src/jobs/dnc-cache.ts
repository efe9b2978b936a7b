// A DNC list's values kept between imports, as their hashes (8 bytes a value), so that an import against lists that
// did not change reads one listing instead of every page again (a million values are 10,000 requests). A cached list
// is used only when it is this service's and account's list with the same size and last update the listing gives
// now, written in the last 24 hours, holding exactly that many values, with its checksum; anything else is read from
// the service again. A cached list can only stand for the list as it was: if the service changed a list without
// changing its size or its updatedAt, the cache would miss that change; 24 hours bounds how long.
//
// The file: the pairs of 32-bit hashes, then a trailer (JSON, one line), then the trailer's length in 4 bytes. It is
// written beside its place under a temporary name (exclusive, 0600) as the pages arrive, and renamed once complete.
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { distrust, openExclusive, tempPathFor } from '../io/safe-file.js';

export const cacheMaxAgeMs = 24 * 3600_000;
/** More values than any list holds: a trailer that says more is not believed. */
const maxValues = 50_000_000;

export interface CacheKey {
  baseUrl: string;
  /** A keyed hash of the API key (journal.ts jobBinding): another account's list is never taken for this one's. */
  account: string;
  listId: string;
  numberOfItems: number;
  updatedAt: string;
}

/** The form of the values hashed (listValueKey and hashText as they are now), and the byte order they are written in
 * (this machine's): a copy written by a version that formed or hashed values otherwise, or on a machine of the other
 * order (a config folder shared), is not believed. Raise the number with any change to either. */
const valueForm = `3${endianness()}`;

interface Trailer extends CacheKey {
  v: typeof valueForm;
  /** Values the list gave (its size); `stored` of them were emails or domains, kept as hashes. */
  count: number;
  stored: number;
  sha256: string;
  writtenAt: number;
}

const fileOf = (dir: string, key: CacheKey) =>
  join(
    dir,
    `${createHash('sha256').update(`${key.baseUrl}\n${key.account}\n${key.listId}`).digest('hex').slice(0, 32)}.dnc`,
  );

/** The cached hashes of the list `key` names (pairs: [hi, lo, hi, lo, ...]), or undefined when there is no good one. */
export function readCachedList(dir: string, key: CacheKey, now: number): Uint32Array | undefined {
  let fd: number;
  try {
    fd = openSync(fileOf(dir, key), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stat = fstatSync(fd);
    if (distrust(stat) || stat.size < 4) return undefined;
    const tail = Buffer.alloc(4);
    readSync(fd, tail, 0, 4, stat.size - 4);
    const trailerBytes = tail.readUInt32LE(0);
    if (trailerBytes > 4096 || trailerBytes + 4 > stat.size) return undefined;
    const trailerText = Buffer.alloc(trailerBytes);
    readSync(fd, trailerText, 0, trailerBytes, stat.size - 4 - trailerBytes);
    const trailer = JSON.parse(trailerText.toString('utf8')) as Trailer;
    const same = (['baseUrl', 'account', 'listId', 'numberOfItems', 'updatedAt'] as const).every(
      (field) => trailer[field] === key[field],
    );
    const fresh =
      typeof trailer.writtenAt === 'number' && now - trailer.writtenAt < cacheMaxAgeMs && trailer.writtenAt <= now;
    const { count, stored } = trailer;
    if (trailer.v !== valueForm || !same || !fresh || !Number.isInteger(count) || count !== key.numberOfItems)
      return undefined;
    if (!Number.isInteger(stored) || stored < 0 || stored > Math.min(count, maxValues)) return undefined;
    if (stored * 8 + trailerBytes + 4 !== stat.size) return undefined;
    const data = Buffer.alloc(stored * 8);
    if (readSync(fd, data, 0, data.length, 0) !== data.length) return undefined;
    if (createHash('sha256').update(data).digest('hex') !== trailer.sha256) return undefined;
    return new Uint32Array(data.buffer, data.byteOffset, stored * 2);
  } catch {
    return undefined; // unreadable or not ours: read from the service instead
  } finally {
    closeSync(fd);
  }
}

/** Writes a list's hashes as they come; `commit` gives the file its name when the list was read whole. The copy is
 * only a speed-up: a failure to write it (a full disk, a config folder that is not writable) drops it, quietly, and
 * never stops the import. */
export class CachedListWriter {
  private failed = false;

  /** A writer, or none when the file cannot be made. */
  static open(dir: string, key: CacheKey): CachedListWriter | undefined {
    try {
      return new CachedListWriter(dir, key);
    } catch {
      return undefined;
    }
  }

  private readonly path: string;
  private readonly temp: string;
  private readonly fd: number;
  /** The hashes to write, as the reader takes them (in this machine's byte order), and the same memory as bytes. */
  private readonly words = new Uint32Array(16 * 1024);
  private readonly buffer = Buffer.from(this.words.buffer);
  private used = 0;
  private count = 0;
  private stored = 0;
  private readonly sha = createHash('sha256');

  private constructor(
    dir: string,
    private readonly key: CacheKey,
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = fileOf(dir, key);
    this.temp = tempPathFor(this.path);
    this.fd = openExclusive(this.temp);
  }

  push(hi: number, lo: number): void {
    if (this.failed) return;
    if (this.used + 8 > this.buffer.length && !this.flushed()) return;
    this.words[this.used / 4] = hi;
    this.words[this.used / 4 + 1] = lo;
    this.used += 8;
    this.count++;
    this.stored++;
  }

  /** A value of the list that is neither an email nor a domain: counted, not kept. */
  skip(): void {
    this.count++;
  }

  /** Complete when it holds as many values as the listing said the list has; otherwise it is dropped. */
  commit(now: number): void {
    if (this.failed || this.count !== this.key.numberOfItems || !this.flushed()) return this.abort();
    const sha256 = this.sha.digest('hex');
    const trailer: Trailer = {
      v: valueForm,
      ...this.key,
      count: this.count,
      stored: this.stored,
      sha256,
      writtenAt: now,
    };
    const text = Buffer.from(JSON.stringify(trailer));
    const length = Buffer.alloc(4);
    length.writeUInt32LE(text.length, 0);
    try {
      writeSync(this.fd, Buffer.concat([text, length]));
      closeSync(this.fd);
      renameSync(this.temp, this.path);
    } catch {
      this.abort();
    }
  }

  abort(): void {
    this.failed = true;
    try {
      closeSync(this.fd);
    } catch {
      // closed already
    }
    try {
      rmSync(this.temp, { force: true });
    } catch {
      // a temporary name, swept by the next run's sweepOrphans
    }
  }

  /** Writes what is buffered; false (and the copy dropped) when it cannot. */
  private flushed(): boolean {
    if (!this.used) return true;
    const block = this.buffer.subarray(0, this.used);
    try {
      writeSync(this.fd, block);
    } catch {
      this.abort();
      return false;
    }
    this.sha.update(block);
    this.used = 0;
    return true;
  }
}
