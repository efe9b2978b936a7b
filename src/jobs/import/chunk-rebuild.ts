// A chunk's body made again from the input, for a retry or a chunk that was compared with the journal before it was
// sent: the rows of its range that passed the checks, as the sending pass wrote them. The email index already knows
// every email of the range, so a duplicate is told from its first occurrence as before. The input is read from its
// start (rows before the range are only parsed: about a second per million rows), which costs nothing while nothing
// fails, instead of a copy of every chunk on disk. Bytes that would differ from the first attempt's (the file was
// edited during the import) are never sent whole: the hash is compared before the last piece goes.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { openCsv, type CsvReadOptions, type CsvRow } from '../../io/csv-reader.js';
import type { EmailIndex } from '../../io/import/email-index.js';
import { checkRow } from '../../io/import/preflight.js';
import { formatCount } from '../../format.js';
import { flushAt, type BuiltChunk, type Rebuild } from './chunk-builder.js';
import type { BodyFormat } from './chunk-body.js';

export interface RebuildSource {
  path: string;
  csv: CsvReadOptions;
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
  return async function* rebuild(chunk: BuiltChunk): AsyncGenerator<Uint8Array> {
    const input = createReadStream(source.path);
    const hash = createHash('sha256');
    let text = source.format.prefix;
    let rows = 0;
    try {
      const csv = await openCsv(input, source.csv);
      reading: for await (const batch of csv.batches)
        for (const record of batch) {
          if (record.row < chunk.firstRow) continue;
          if (record.row > chunk.lastRow) break reading;
          if (!checkRow(record, source.emailColumn, source.emails, 'lookup').ok) continue;
          text += (rows++ ? ',' : '') + source.format.row((record as CsvRow).fields);
          if (text.length < flushAt) continue;
          const bytes = Buffer.from(text);
          hash.update(bytes);
          yield bytes;
          text = '';
        }
    } finally {
      input.destroy();
    }
    const last = Buffer.from(text + source.format.suffix);
    hash.update(last);
    if (rows !== chunk.rows || hash.digest('hex') !== chunk.sha256)
      throw new InputChanged(source.csv.name ?? source.path, chunk);
    yield last;
  };
}
