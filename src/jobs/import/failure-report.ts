// Reads a failed-rows report (the CSV behind failedProspectsURL / reportURL) into email -> reason.
// Its columns are not documented: find the email column, and a code and a reason column if there are any.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { importStatusMeaning } from '../../api/contract/prospects.js';
export interface RowFailure {
  code?: number;
  reason: string;
}

/** The service left these rows as they were because of the conflict action: nothing for the user to fix. */
export const unchangedCodes = new Set([10400, 10500]);

/** Reads the report file as a stream: a report of many failed rows never sits in memory whole. */
export async function readFailureReport(path: string, into: Map<string, RowFailure>): Promise<number> {
  const parser = createReadStream(path).pipe(parse({ bom: true, skip_empty_lines: true, relax_column_count: true }));
  let header: string[] | undefined;
  let emailAt = -1;
  let codeAt = -1;
  let reasonAt = -1;
  let count = 0;
  for await (const record of parser as AsyncIterable<string[]>) {
    if (!header) {
      header = record;
      const find = (pattern: RegExp) => record.findIndex((h) => pattern.test(h));
      emailAt = find(/e-?mail/i);
      codeAt = find(/code|status/i);
      reasonAt = find(/reason|error|message|detail/i);
      if (emailAt < 0) throw new Error(`the failed-rows report has no email column (columns: ${record.join(', ')})`);
      continue;
    }
    count++;
    const email = (record[emailAt] ?? '').trim().toLowerCase();
    const code = codeAt >= 0 ? Number(record[codeAt]) : NaN;
    const reason =
      (reasonAt >= 0 ? record[reasonAt] : '') || (Number.isFinite(code) ? importStatusMeaning(code) : 'failed');
    into.set(email, Number.isFinite(code) ? { code, reason: `${code} ${reason}` } : { reason: reason! });
  }
  return count;
}
