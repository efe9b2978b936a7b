// Task ids for a bulk action: from arguments, a file (one per line, or a CSV with a taskId/id column), stdin,
// or a filtered listing. De-duplicated, in first-seen order.
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { openCsv } from './csv-reader.js';
import { openInput, type InputPlace } from './input-file.js';

const idColumns = ['taskid', 'id', 'task'];
const idHint = 'Give one id per line (or a CSV with a taskId column); ids are letters, digits, "-" and "_".';

/** `firstOfTsv`: a line may be tab-separated (`tasks list` output); its first column is the id. */
export async function* idsFromCsvOrLines(
  input: Readable,
  isCsv: boolean,
  where: string,
  firstOfTsv = false,
): AsyncGenerator<string> {
  const source = await openCsv(input, { header: isCsv, name: where });
  let column = 0;
  if (isCsv) {
    const found = source.header.findIndex((h) => idColumns.includes(h.toLowerCase().replace(/[\s_-]+/g, '')));
    column = found >= 0 ? found : 0;
  }
  let first = !isCsv;
  for await (const record of source.rows) {
    // A header line (`id`, `taskId`, or `tasks list --csv` output) names the column, it is no id.
    if (first && record.fields) {
      first = false;
      const cell = (firstOfTsv ? (record.fields[0] ?? '').split('\t')[0]! : (record.fields[0] ?? '')).trim();
      if (idColumns.includes(cell.toLowerCase().replace(/[\s_-]+/g, ''))) continue;
    }
    if (!record.fields)
      throw new UsageError(`${where}, row ${record.row}: ${'reason' in record ? record.reason : 'unreadable'}`);
    const cell = record.fields[column] ?? '';
    const id = (firstOfTsv ? cell.split('\t')[0]! : cell).trim();
    if (!id) continue;
    // Ids are opaque, but never hold spaces or punctuation: a stray line ("hello world") stops here, unsent.
    if (!/^[\w-]{1,64}$/.test(id))
      throw new UsageError(`${where}, line ${record.row}: "${id.slice(0, 40)}" is not an id`, idHint);
    yield id;
  }
}

/** Ids from `value`'s file, or from stdin for `-` (lines, or `tasks list` output whose first column is the id). */
export function idsFromFile(value: string, place: InputPlace, shown: string): AsyncGenerator<string> {
  const { stream, path } = openInput(value, place, shown);
  stream.on('error', () => undefined);
  return path ? idsFromCsvOrLines(stream, /\.csv$/i.test(path), shown) : idsFromCsvOrLines(stream, false, shown, true);
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
