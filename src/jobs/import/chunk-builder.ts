// One request body being built: rows are hashed as they are added and written to a spool file of the chunk's own (in
// the user's private temporary folder, created exclusively, 0600), which every attempt of its request reads whole: the
// first at full speed once the service is ready for it, a retry with the very bytes the first attempt sent. The spool
// goes once the chunk is accepted (or the import ends); a kill -9 leaves it to the next import's sweep. A chunk is
// built while the chunks before it are under way, so the service never waits for the input to be read. The content
// hash lets --resume recognise a chunk that was already accepted.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, constants, openSync, readSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpoolFailed } from '../../errors.js';
import { openExclusive } from '../../io/safe-file.js';
import { tempDir, tempName } from '../temp-files.js';

/** A finished chunk: which rows of the input it holds, and the hash of its body. */
export interface BuiltChunk {
  index: number;
  rows: number;
  bytes: number;
  sha256: string;
  firstRow: number;
  lastRow: number;
}

/** A finished chunk whose body is spooled: read afresh for each attempt, removed once done with. */
export interface SpooledChunk extends BuiltChunk {
  /** The body's bytes, read afresh for each attempt; a piece is valid until the next one is asked for. */
  body(): AsyncIterable<Uint8Array>;
  discard(): void;
}

/** Text goes to the spool (and the hash) in pieces of about this many characters. */
const flushAt = 64 * 1024;
/** Where a piece of text is encoded for the spool: three bytes a character is the most UTF-8 takes (a character
 * outside the BMP is two characters of four bytes). Pieces are written synchronously, so one buffer serves all. */
const encodeBuffer = Buffer.allocUnsafe(3 * 2 * flushAt);

/** A request reads its spool in pieces this large, into one buffer it reuses (the transport writes a piece once the one
 * before it has reached the socket). Each piece waits for an event-loop turn, which the reading of the next chunk holds
 * for milliseconds at a time: in 64 KiB pieces a 1.3 MB body took 70 ms to reach the service, not 6; in 256 KiB
 * pieces an 11 MB body took 300 ms. A new buffer a piece would leave the memory of the pieces sent to the collector,
 * which takes it back late (1M rows: peak RSS 115 MiB at 64 KiB, 134 at 1 MiB). */
const uploadPieceBytes = 1024 * 1024;

/** The buffers of uploads that ended, for the next ones (as many as are sent at once, at most 8 kept). A new buffer
 * for each upload would leave 1 MiB a chunk to the collector, which takes such memory back late (1M rows: 16 MiB more
 * at the peak). */
const spareBuffers: Buffer[] = [];

/** The spool's bytes a piece at a time, read synchronously (a page-cache read of 1 MiB takes about 0.1 ms) into one
 * buffer: each piece is the same memory, valid until the next is asked for; the buffer is handed on when the upload
 * ends, once its last piece has been written or the request has failed. */
async function* spoolPieces(path: string): AsyncGenerator<Uint8Array> {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(uploadPieceBytes);
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, uploadPieceBytes, null);
      if (read === 0) return;
      yield buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
    if (spareBuffers.length < 8) spareBuffers.push(buffer);
  }
}

export class ChunkBuilder {
  private readonly hash: Hash | undefined;
  private readonly spool: { path: string; fd: number } | undefined;
  private text: string;
  rows = 0;
  /** Bytes of the body so far, closing bracket included. */
  bytes: number;
  firstRow = 0;
  lastRow = 0;

  /** `spooled` false: the chunk is only checked (--dry-run), so neither written nor hashed. */
  constructor(
    readonly index: number,
    prefix: string,
    private readonly suffix: string,
    spooled: boolean,
  ) {
    if (spooled) {
      this.hash = createHash('sha256');
      const path = join(tempDir(), tempName('chunk', `-${index}.json`));
      this.spool = { path, fd: spooling(() => openExclusive(path)) };
    }
    this.bytes = Buffer.byteLength(prefix) + Buffer.byteLength(suffix);
    this.text = prefix;
  }

  /** Bytes the body would have with a row of `rowBytes` added. */
  bytesWith(rowBytes: number): number {
    return this.bytes + rowBytes + (this.rows ? 1 : 0);
  }

  add(row: number, rowJson: string, rowBytes: number): void {
    if (this.rows === 0) this.firstRow = row;
    this.lastRow = row;
    this.bytes += rowBytes + (this.rows ? 1 : 0);
    this.text += (this.rows++ ? ',' : '') + rowJson;
    if (this.text.length >= flushAt) this.flush();
  }

  /** Ends the body; the chunk, its spool closed and ready to be read. */
  finish(): SpooledChunk {
    this.text += this.suffix;
    this.flush();
    const spool = this.spool;
    if (spool) closeSync(spool.fd);
    const { index, rows, bytes, firstRow, lastRow } = this;
    const sha256 = this.hash?.digest('hex') ?? '';
    return {
      index,
      rows,
      bytes,
      sha256,
      firstRow,
      lastRow,
      body: () => spoolPieces(spool!.path),
      discard: () => spool && removeSpool(spool.path),
    };
  }

  /** The chunk will not be finished: its spool goes. */
  abort(): void {
    if (!this.spool) return;
    closeSync(this.spool.fd);
    removeSpool(this.spool.path);
  }

  /** Writes what waits to the spool: a 64 KiB write to the page cache takes microseconds, so it is made at once. The
   * text is encoded once, into one buffer every chunk reuses, for both the hash and the file: no Buffer is made for
   * each piece, so the import's memory does not fill with pieces waiting for a collection. */
  private flush(): void {
    const text = this.text;
    this.text = '';
    if (!this.spool || !text) return;
    // A piece that might not fit (a row with a very long value) gets a buffer of its own.
    const bytes =
      text.length * 3 <= encodeBuffer.length
        ? encodeBuffer.subarray(0, encodeBuffer.write(text, 'utf8'))
        : Buffer.from(text, 'utf8');
    this.hash!.update(bytes);
    // writeFileSync on a descriptor writes until every byte is out (a write may take only part of them).
    const fd = this.spool.fd;
    spooling(() => writeFileSync(fd, bytes));
  }
}

/** unlink, not rmSync: rmSync looks at the file first (lstat) to learn whether it is a folder. */
function removeSpool(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** A spool that cannot be made or written (a full disk, a quota, a file size limit) is said with where and what to do. */
function spooling<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SpoolFailed(
      tempDir(),
      (error as Error).message,
      code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG',
    );
  }
}
