// The one reader of the reports the service writes (an import's failed rows, a bulk action's failed tasks): CSV of
// undocumented columns, found by name. It streams, so a report of any size never sits in memory, and a report that is
// not CSV (an error page, JSON) or has no column for what a row is about is said as such, not a crash.
import { createReadStream } from 'node:fs';
import { CsvError, parse } from 'csv-parse';

/** A record (a row of a report) longer than this, in characters, is not a report: reading stops. */
export const maxReportRecordChars = 1 << 20;

/** The report is not what its reader can use. */
export class UnreadableReport extends Error {}

/** Each row of the report at `path` as the named columns' values (undefined for a column the report or the row lacks). `columns` finds
 * each column by its header; `key` names the one a row cannot do without: without a header of its own, it is the
 * first column when `keyFirst` says so, else the report is unreadable. */
export async function* reportRows<C extends Record<string, RegExp>>(
  path: string,
  columns: C,
  key: keyof C & string,
  keyFirst = false,
): AsyncGenerator<Record<keyof C, string | undefined>> {
  type K = keyof C & string;
  const file = createReadStream(path);
  const parser = file.pipe(
    parse({ bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: maxReportRecordChars }),
  );
  let at: Array<[K, number]> | undefined;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!at) {
        at = (Object.entries(columns) as Array<[K, RegExp]>).map(([name, pattern]) => [
          name,
          record.findIndex((h) => pattern.test(h)),
        ]);
        const keyAt = at.find(([name]) => name === key)!;
        if (keyAt[1] < 0 && keyFirst) keyAt[1] = 0;
        if (keyAt[1] < 0) throw new UnreadableReport(`the report has no ${key} column (columns: ${record.join(', ')})`);
        continue;
      }
      yield Object.fromEntries(at.map(([name, i]) => [name, i >= 0 ? record[i] : undefined])) as Record<
        keyof C,
        string | undefined
      >;
    }
  } catch (error) {
    if (error instanceof UnreadableReport) throw error;
    // csv-parse's own errors (a quote where none may be, a record too long) say the text is not CSV.
    if (error instanceof CsvError) throw new UnreadableReport(`it is not CSV: ${error.message}`);
    throw error;
  } finally {
    parser.destroy();
    file.destroy();
  }
}
