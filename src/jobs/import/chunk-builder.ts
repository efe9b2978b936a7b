// One request body being built: rows are hashed as they are added and written to a spool file of the chunk's own (in
// the user's private temporary folder, created exclusively, 0600), which every attempt of its request reads whole: the
// first at full speed once the service is ready for it, a retry with the very bytes the first attempt sent. The spool
// goes once the chunk is accepted (or the import ends); a kill -9 leaves it to the next import's sweep. A chunk is
// built while the chunks before it are under way, so the service never waits for the input to be read. The content
// hash lets --resume recognise a chunk that was already accepted.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
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
  body(): NodeJS.ReadableStream;
  discard(): void;
}

/** Text goes to the spool (and the hash) in pieces of about this many characters. */
const flushAt = 64 * 1024;

export class ChunkBuilder {
  private readonly hash: Hash | undefined;
  private readonly spool: { path: string; stream: WriteStream } | undefined;
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
      this.spool = { path, stream: createWriteStream(path, { fd: openExclusive(path), highWaterMark: flushAt }) };
    }
    this.bytes = Buffer.byteLength(prefix) + Buffer.byteLength(suffix);
    this.text = prefix;
  }

  /** Bytes the body would have with a row of `rowBytes` added. */
  bytesWith(rowBytes: number): number {
    return this.bytes + rowBytes + (this.rows ? 1 : 0);
  }

  /** Adds a row; returns a promise only when the spool must catch up before more is added. */
  add(row: number, rowJson: string, rowBytes: number): Promise<void> | undefined {
    if (this.rows === 0) this.firstRow = row;
    this.lastRow = row;
    this.bytes += rowBytes + (this.rows ? 1 : 0);
    this.text += (this.rows++ ? ',' : '') + rowJson;
    return this.text.length < flushAt ? undefined : this.flush();
  }

  /** Ends the body; the chunk, its spool closed and ready to be read. */
  async finish(): Promise<SpooledChunk> {
    this.text += this.suffix;
    await this.flush();
    const spool = this.spool;
    if (spool)
      await new Promise<void>((resolve, reject) =>
        spool.stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    const { index, rows, bytes, firstRow, lastRow } = this;
    const sha256 = this.hash?.digest('hex') ?? '';
    return {
      index,
      rows,
      bytes,
      sha256,
      firstRow,
      lastRow,
      body: () => createReadStream(spool!.path, { highWaterMark: flushAt }),
      discard: () => spool && rmSync(spool.path, { force: true }),
    };
  }

  /** The chunk will not be finished: its spool goes. */
  abort(): void {
    if (!this.spool) return;
    this.spool.stream.destroy();
    rmSync(this.spool.path, { force: true });
  }

  private async flush(): Promise<void> {
    const text = this.text;
    this.text = '';
    if (!this.spool || !text) return;
    const bytes = Buffer.from(text);
    this.hash!.update(bytes);
    if (!this.spool.stream.write(bytes)) await drained(this.spool.stream);
  }
}

function drained(stream: WriteStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', done);
      stream.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    stream.on('drain', done);
    stream.on('error', done);
  });
}
