// Task ids for a bulk action: from arguments, a file (one per line, or a CSV with a taskId/id column), stdin,
// or a filtered listing. De-duplicated, in first-seen order.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { openCsv } from './csv-reader.js';

const idColumns = ['taskid', 'id', 'task'];

export async function* idsFromCsvOrLines(input: Readable, isCsv: boolean, where: string): AsyncGenerator<string> {
  const source = await openCsv(input, { header: isCsv });
  let column = 0;
  if (isCsv) {
    const found = source.header.findIndex((h) => idColumns.includes(h.toLowerCase().replace(/[\s_-]+/g, '')));
    column = found >= 0 ? found : 0;
  }
  for await (const record of source.rows) {
    if (!record.fields)
      throw new UsageError(`${where}, row ${record.row}: ${'reason' in record ? record.reason : 'unreadable'}`);
    const id = (record.fields[column] ?? '').trim();
    if (id) yield id;
  }
}

export function idsFromFile(path: string): AsyncGenerator<string> {
  const stream = createReadStream(path);
  stream.on('error', () => undefined);
  return idsFromCsvOrLines(stream, /\.csv$/i.test(path), path);
}

export class IdSet {
  private readonly seen = new Set<string>();
  readonly ids: string[] = [];
  duplicates = 0;

  add(id: string): void {
    if (this.seen.has(id)) this.duplicates++;
    else {
      this.seen.add(id);
      this.ids.push(id);
    }
  }
}
