// Reads a failed-rows report (the CSV behind failedProspectsURL / reportURL) into email -> reason.
// Its columns are not documented: find the email column, and a code and a reason column if there are any.
import { parse } from 'csv-parse/sync';
import { importStatusMeaning } from '../../api/contract/prospects.js';
export interface RowFailure {
  code?: number;
  reason: string;
}

/** The service left these rows as they were because of the conflict action: nothing for the user to fix. */
export const unchangedCodes = new Set([10400, 10500]);

export function parseFailureReport(csv: string, into: Map<string, RowFailure>): number {
  const rows = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  const [header, ...records] = rows;
  if (!header) return 0;
  const find = (pattern: RegExp) => header.findIndex((h) => pattern.test(h));
  const emailAt = find(/e-?mail/i);
  const codeAt = find(/code|status/i);
  const reasonAt = find(/reason|error|message|detail/i);
  if (emailAt < 0) throw new Error(`the failed-rows report has no email column (columns: ${header.join(', ')})`);
  for (const record of records) {
    const email = (record[emailAt] ?? '').trim().toLowerCase();
    const code = codeAt >= 0 ? Number(record[codeAt]) : NaN;
    const reason =
      (reasonAt >= 0 ? record[reasonAt] : '') || (Number.isFinite(code) ? importStatusMeaning(code) : 'failed');
    into.set(email, Number.isFinite(code) ? { code, reason: `${code} ${reason}` } : { reason: reason! });
  }
  return records.length;
}
