// One request body being built: rows are written to a temporary file as they are read, never held in memory,
// and the file is streamed as the request body (again, for a retry). The content hash lets --resume recognise
// a chunk that was already accepted.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { tempName } from '../temp-files.js';

export interface SpooledChunk {
  index: number;
  path: string;
  rows: number;
  bytes: number;
  sha256: string;
  firstRow: number;
  lastRow: number;
  /** The body, from the start, each time it is called. */
  body(): NodeJS.ReadableStream;
  discard(): Promise<void>;
}

const flushAt = 64 * 1024;

export class ChunkSpool {
  readonly path: string;
  private readonly out: WriteStream;
  private readonly hash: Hash = createHash('sha256');
  private pending: string[] = [];
  private pendingLength = 0;
  private separator = '';
  rows = 0;
  /** Bytes of the body so far, closing bracket included. */
  bytes: number;
  firstRow = 0;
  lastRow = 0;

  constructor(
    dir: string,
    readonly index: number,
    prefix: string,
    private readonly suffix: string,
  ) {
    this.path = join(dir, tempName('chunk', `-${index}.json`));
    this.out = createWriteStream(this.path, { mode: 0o600 });
    this.bytes = Buffer.byteLength(prefix) + Buffer.byteLength(suffix);
    this.push(prefix);
  }

  /** Bytes the body would have with a row of `rowBytes` added. */
  bytesWith(rowBytes: number): number {
    return this.bytes + rowBytes + (this.rows ? 1 : 0);
  }

  /** Adds a row; returns a promise only when the buffered rows had to be written out. */
  add(row: number, rowJson: string, rowBytes: number): Promise<void> | undefined {
    if (this.rows === 0) this.firstRow = row;
    this.lastRow = row;
    this.bytes += rowBytes + (this.rows ? 1 : 0);
    this.rows++;
    this.push(this.separator + rowJson);
    this.separator = ',';
    return this.pendingLength >= flushAt ? this.flush() : undefined;
  }

  async finish(): Promise<SpooledChunk> {
    this.push(this.suffix);
    await this.flush();
    this.out.end();
    await once(this.out, 'close');
    const { path, index, rows, bytes, firstRow, lastRow } = this;
    return {
      index,
      path,
      rows,
      bytes,
      firstRow,
      lastRow,
      sha256: this.hash.digest('hex'),
      body: () => createReadStream(path, { highWaterMark: 16 * 1024 }),
      discard: () => rm(path, { force: true }),
    };
  }

  async abort(): Promise<void> {
    this.out.destroy();
    await rm(this.path, { force: true });
  }

  private push(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    this.hash.update(text);
    if (!this.out.write(text)) await once(this.out, 'drain');
  }
}
