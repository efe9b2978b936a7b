// A chunk's body made again from the input, for a retry or a chunk that was compared with the journal before it was
// sent: the rows of its range that passed the checks, as the sending pass wrote them, cut into the same pieces. The
// email index already knows every email of the range, so a duplicate is told from its first occurrence as before.
// The input is read from the place the reader noted before the chunk's first row (or from its start when it knew
// none), so a retry costs about what the chunk itself does, and nothing is kept on disk or in memory meanwhile.
// Every piece is compared with the digest of the piece first sent before it goes: a read from a noted place that
// comes out differently (or fails) is taken up again from the file's start after the pieces already sent, and bytes
// that still differ (the file was edited during the import) are never sent.
import { createReadStream } from 'node:fs';
import { openCsv, type CsvPosition, type CsvReadOptions, type CsvRow } from '../../io/csv-reader.js';
import type { EmailIndex } from '../../io/import/email-index.js';
import { checkRow } from '../../io/import/preflight.js';
import { formatCount } from '../../format.js';
import { UsageError } from '../../errors.js';
import { BodyPieces, pieceDigest, type BuiltChunk, type Rebuild } from './chunk-builder.js';
import type { BodyFormat } from './chunk-body.js';

export interface RebuildSource {
  path: string;
  csv: CsvReadOptions;
  /** The file's header, as the sending pass read it (a read from a noted place starts below it). */
  header: string[];
  emailColumn: number;
  emails: EmailIndex;
  format: BodyFormat;
}

export class InputChanged extends Error {
  constructor(name: string, chunk: BuiltChunk) {
    super(
      `${name} changed during the import: rows ${formatCount(chunk.firstRow)}-${formatCount(chunk.lastRow)} no longer ` +
        'read as they did when first sent, so they were not sent again',
    );
  }
}

export function rebuilder(source: RebuildSource): Rebuild {
  /** The chunk's body in the pieces the sending pass wrote, read from `from` (or the file's start). */
  async function* pieces(chunk: BuiltChunk, from: CsvPosition | undefined): AsyncGenerator<Buffer> {
    const input = createReadStream(source.path, { start: from?.byte ?? 0 });
    const body = new BodyPieces(source.format.prefix, source.format.suffix);
    try {
      const { csv: options, header } = source;
      const csv = await openCsv(input, from ? { ...options, encoding: 'utf8', from: { ...from, header } } : options);
      reading: for await (const batch of csv.batches)
        for (const record of batch.rows) {
          if (record.row < chunk.firstRow) continue;
          if (record.row > chunk.lastRow) break reading;
          if (!checkRow(record, source.emailColumn, source.emails, 'lookup').ok) continue;
          const piece = body.add(source.format.row((record as CsvRow).fields));
          if (piece !== undefined) yield Buffer.from(piece);
        }
    } finally {
      input.destroy();
    }
    yield Buffer.from(body.end());
  }

  return async function* rebuild(chunk: BuiltChunk): AsyncGenerator<Uint8Array> {
    let sent = 0;
    /** Yields the pieces of a read that match, after those already sent; whether it gave all of them. */
    async function* matching(read: AsyncGenerator<Buffer>): AsyncGenerator<Buffer, boolean> {
      let index = 0;
      for await (const piece of read) {
        if (index < sent) {
          index++;
          continue;
        }
        if (index >= chunk.pieces.length || pieceDigest(piece) !== chunk.pieces[index]) return false;
        yield piece;
        index = ++sent;
      }
      return sent === chunk.pieces.length;
    }
    if (chunk.from) {
      try {
        if (yield* matching(pieces(chunk, chunk.from))) return;
      } catch {
        // A read from a noted place that fails is read again from the start, like one that reads differently.
      }
    }
    let complete: boolean;
    try {
      complete = yield* matching(pieces(chunk, undefined));
    } catch (error) {
      // The range was read before; a CSV that no longer reads (a quote now never closed) was edited meanwhile.
      if (error instanceof UsageError) throw new InputChanged(source.csv.name ?? source.path, chunk);
      throw error;
    }
    if (!complete) throw new InputChanged(source.csv.name ?? source.path, chunk);
  };
}
