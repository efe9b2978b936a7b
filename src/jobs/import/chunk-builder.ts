// One request body being built, never held whole and never written to disk: rows are hashed as they are added and,
// when the chunk streams, written into its request at once (the service reads the chunk while the file is still being
// read). Any later attempt (a retry, a chunk checked against the journal first) rebuilds the body from the input's
// row range (chunk-rebuild.ts). The content hash lets --resume recognise a chunk that was already accepted; a digest
// of each piece written lets the rebuild check every piece before it sends it.
import { createHash, type Hash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { CsvPosition } from '../../io/csv-reader.js';

/** A finished chunk: which rows of the input it holds, and the hash of its body. */
export interface BuiltChunk {
  index: number;
  rows: number;
  bytes: number;
  sha256: string;
  firstRow: number;
  lastRow: number;
  /** A digest of each piece of the body as first written (about 64 KiB each). */
  pieces: string[];
  /** Where the input can be read from again to rebuild the chunk, when the reader knew such a place. */
  from?: CsvPosition;
}

/** A chunk as its request sees it: the body for each attempt, and the chunk's range and hash once it is built. */
export interface ChunkInFlight {
  index: number;
  body(): AsyncIterable<Uint8Array> | NodeJS.ReadableStream;
  finished(): Promise<BuiltChunk>;
}

/** The body of a finished chunk, made again from the input. */
export type Rebuild = (chunk: BuiltChunk) => AsyncIterable<Uint8Array>;

/** A chunk built before it is sent (compared with the journal first): every attempt rebuilds it. */
export function inFlight(chunk: BuiltChunk, rebuild: Rebuild): ChunkInFlight & BuiltChunk {
  return { ...chunk, body: () => rebuild(chunk), finished: async () => chunk };
}

/** Text is handed to the request (and the hash) in pieces of about this many characters. */
export const flushAt = 64 * 1024;

/** A body cut into the pieces its request carries: the prefix, the rows joined by commas, the suffix, in a piece
 * whenever at least `flushAt` characters wait. The builder and the rebuild both cut with it, so a rebuilt piece can be
 * compared with the one first sent. */
export class BodyPieces {
  private text: string;
  private rows = 0;

  constructor(
    prefix: string,
    private readonly suffix: string,
  ) {
    this.text = prefix;
  }

  /** Adds a row; returns a piece when one is full. */
  add(rowJson: string): string | undefined {
    this.text += (this.rows++ ? ',' : '') + rowJson;
    return this.text.length < flushAt ? undefined : this.take();
  }

  /** The last piece, suffix included. */
  end(): string {
    this.text += this.suffix;
    return this.take();
  }

  private take(): string {
    const text = this.text;
    this.text = '';
    return text;
  }
}

/** 72 bits of a piece's SHA-256: a piece that differs is told from the original, not a secret. */
export function pieceDigest(piece: Buffer): string {
  return createHash('sha256').update(piece).digest('base64').slice(0, 12);
}

export class ChunkBuilder implements ChunkInFlight {
  private readonly hash: Hash | undefined;
  private readonly pieces: string[] = [];
  private readonly text: BodyPieces;
  rows = 0;
  /** Bytes of the body so far, closing bracket included. */
  bytes: number;
  firstRow = 0;
  lastRow = 0;
  /** The body of the first attempt while it is being built, when the chunk streams. */
  private live: PassThrough | undefined;
  private readonly done: Promise<BuiltChunk>;
  private settle!: { resolve(chunk: BuiltChunk): void; reject(error: unknown): void };

  /** `rebuild` undefined: the chunk is only checked (--dry-run), so neither sent nor hashed. `from`: where the
   * input can be read again from for a rebuild (at or before the chunk's first row). */
  constructor(
    readonly index: number,
    prefix: string,
    suffix: string,
    private readonly rebuild: Rebuild | undefined,
    streams: boolean,
    private readonly from: CsvPosition | undefined,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.done.catch(() => undefined);
    if (rebuild) this.hash = createHash('sha256');
    if (streams) this.live = new PassThrough({ highWaterMark: flushAt });
    this.bytes = Buffer.byteLength(prefix) + Buffer.byteLength(suffix);
    this.text = new BodyPieces(prefix, suffix);
  }

  /** Bytes the body would have with a row of `rowBytes` added. */
  bytesWith(rowBytes: number): number {
    return this.bytes + rowBytes + (this.rows ? 1 : 0);
  }

  /** Adds a row; returns a promise only when the request must read what was written before more is added. */
  add(row: number, rowJson: string, rowBytes: number): Promise<void> | undefined {
    if (this.rows === 0) this.firstRow = row;
    this.lastRow = row;
    this.bytes += rowBytes + (this.rows ? 1 : 0);
    this.rows++;
    const piece = this.text.add(rowJson);
    return piece === undefined ? undefined : this.write(this.sealed(piece));
  }

  /** The body for each attempt: the first takes the rows as they come (when the chunk streams), any other the rows
   * rebuilt from the input once the chunk is finished. */
  body(): AsyncIterable<Uint8Array> | PassThrough {
    const live = this.live;
    if (live && !live.destroyed && !live.readableDidRead) return live;
    this.live = undefined;
    const { done, rebuild } = this;
    return (async function* () {
      yield* rebuild!(await done);
    })();
  }

  /** Resolves once the chunk is finished (its row range and hash known), for a send that started before. */
  finished(): Promise<BuiltChunk> {
    return this.done;
  }

  /** Ends the body. `beforeLastBytes` learns the chunk's range and hash before its request can carry the whole
   * body: a journal written there holds them whenever the service may have acted on the chunk. `readerKnowsPlaces`
   * false: the reader lost track of byte positions (bytes that did not decode as UTF-8) before the chunk's end, so a
   * rebuild reads the input from its start, as this read did. */
  async finish(readerKnowsPlaces: boolean, beforeLastBytes?: (chunk: BuiltChunk) => void): Promise<BuiltChunk> {
    const last = this.sealed(this.text.end());
    const { index, rows, bytes, firstRow, lastRow, pieces } = this;
    const from = readerKnowsPlaces ? this.from : undefined;
    const sha256 = this.hash?.digest('hex') ?? '';
    const chunk: BuiltChunk = { index, rows, bytes, firstRow, lastRow, sha256, pieces, ...(from && { from }) };
    beforeLastBytes?.(chunk);
    await this.write(last);
    this.live?.end();
    this.settle.resolve(chunk);
    return chunk;
  }

  abort(): void {
    this.live?.destroy();
    this.settle.reject(new Error('the chunk was not finished'));
  }

  /** A piece as bytes (encoded once for the hash and the request), hashed; nothing when the chunk is not sent. */
  private sealed(piece: string): Buffer | undefined {
    if (!this.hash) return undefined;
    const bytes = Buffer.from(piece);
    this.hash.update(bytes);
    this.pieces.push(pieceDigest(bytes));
    return bytes;
  }

  private async write(bytes: Buffer | undefined): Promise<void> {
    const live = this.live;
    // The request reads at its own pace; one that failed (and destroyed the stream) no longer holds the reading up.
    if (bytes && live && !live.destroyed && !live.write(bytes)) await drainedOrClosed(live);
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
