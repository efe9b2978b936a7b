// One request body being built: rows are written to a temporary file as they are read, never held in memory.
// A chunk that streams goes into its request at the same time, as the rows are parsed (the service reads it while
// the file is still being read); a retry, or a chunk that does not stream, sends the finished file. The content hash
// lets --resume recognise a chunk that was already accepted.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { PassThrough } from 'node:stream';
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

/** A chunk as its request sees it: the body for each attempt, and the chunk's range and hash once it is built. */
export interface ChunkInFlight {
  index: number;
  body(): AsyncIterable<Uint8Array> | NodeJS.ReadableStream;
  finished(): Promise<SpooledChunk>;
  discard(): Promise<void>;
}

/** A chunk built before it is sent (resumed, or checked first), as a request takes it. */
export function inFlight(chunk: SpooledChunk): ChunkInFlight {
  return { ...chunk, finished: async () => chunk };
}

const flushAt = 64 * 1024;

export class ChunkSpool implements ChunkInFlight {
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
  /** The body of the first attempt while it is being built, when the chunk streams. */
  private live: PassThrough | undefined;
  private readonly done: Promise<SpooledChunk>;
  private settle!: { resolve(chunk: SpooledChunk): void; reject(error: unknown): void };

  constructor(
    dir: string,
    readonly index: number,
    prefix: string,
    private readonly suffix: string,
    streams = false,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => undefined);
    if (streams) this.live = new PassThrough({ highWaterMark: flushAt });
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

  /** The body for each attempt of a streaming chunk: the first takes the rows as they come, a retry the whole file
   * once it is finished. */
  body(): AsyncIterable<Uint8Array> | PassThrough {
    const live = this.live;
    if (live && !live.destroyed && !live.readableDidRead) return live;
    this.live = undefined;
    const done = this.done;
    return (async function* () {
      yield* (await done).body() as AsyncIterable<Uint8Array>;
    })();
  }

  /** Resolves once the chunk is finished (its row range and hash known), for a send that started before. */
  finished(): Promise<SpooledChunk> {
    return this.done;
  }

  /** Removes the file once the chunk is finished (a request that fails early must not cut the building short). */
  async discard(): Promise<void> {
    await this.done.catch(() => undefined);
    await rm(this.path, { force: true });
  }

  /** Ends the body. `beforeLastBytes` learns the chunk's range and hash before its request can carry the whole
   * body: a journal written there holds them whenever the service may have acted on the chunk. */
  async finish(beforeLastBytes?: (chunk: SpooledChunk) => void): Promise<SpooledChunk> {
    this.push(this.suffix);
    const last = this.take();
    const chunk = this.describe();
    beforeLastBytes?.(chunk);
    await this.write(last);
    this.live?.end();
    this.out.end();
    await once(this.out, 'close');
    this.settle.resolve(chunk);
    return chunk;
  }

  private describe(): SpooledChunk {
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
    this.live?.destroy();
    this.settle.reject(new Error('the chunk was not finished'));
    this.out.destroy();
    await rm(this.path, { force: true });
  }

  private push(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
  }

  private flush(): Promise<void> {
    return this.write(this.take());
  }

  /** The buffered text, hashed. */
  private take(): string {
    const text = this.pending.join('');
    this.pending = [];
    this.pendingLength = 0;
    this.hash.update(text);
    return text;
  }

  private async write(text: string): Promise<void> {
    if (!text) return;
    const live = this.live;
    const toFile = this.out.write(text) ? undefined : once(this.out, 'drain');
    // The request reads at its own pace; one that failed (and destroyed the stream) no longer holds the reading up.
    if (live && !live.destroyed && !live.write(text)) await drainedOrClosed(live);
    await toFile;
  }
}

function drainedOrClosed(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
