// Reads a failed-rows report (the CSV behind failedProspectsURL / reportURL) into email -> reason.
// Its columns are not documented: find the email column, and a code and a reason column if there are any.
// The report is the service's word, not the user's file: it is streamed, and only rows for emails of the user's file
// are kept, so memory follows the file whatever the report's size.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { importStatusMeaning } from '../../api/contract/prospects.js';
export interface RowFailure {
  code?: number;
  reason: string;
}

/** The service left these rows as they were because of the conflict action: nothing for the user to fix. */
export const unchangedCodes = new Set([10400, 10500]);

/** A record (a row of the report) longer than this, in characters, is not a report: reading stops. */
export const maxReportRecordChars = 1 << 20;
/** A reason is kept up to this many characters (it goes to a results file, one per row of the input). */
export const maxReasonChars = 1_000;

export interface FailureReportCounts {
  /** Data rows in the report. */
  rows: number;
  /** Rows for emails of the user's file: the only ones kept. */
  kept: number;
  /** Rows for emails not in the user's file: counted, not kept. */
  ignored: number;
}

/** Reads the report file as a stream into `into`, keeping only rows whose email `inFile` knows: a report of many
 * rows, or of rows that are not the user's, never sits in memory. */
export async function readFailureReport(
  path: string,
  into: Map<string, RowFailure>,
  inFile: (email: string) => boolean,
): Promise<FailureReportCounts> {
  const parser = createReadStream(path).pipe(
    parse({ bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: maxReportRecordChars }),
  );
  let header: string[] | undefined;
  let emailAt = -1;
  let codeAt = -1;
  let reasonAt = -1;
  const counts: FailureReportCounts = { rows: 0, kept: 0, ignored: 0 };
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
    counts.rows++;
    const email = (record[emailAt] ?? '').trim().toLowerCase();
    if (!email || !inFile(email)) {
      counts.ignored++;
      continue;
    }
    counts.kept++;
    const code = codeAt >= 0 ? Number(record[codeAt]) : NaN;
    const given =
      (reasonAt >= 0 ? record[reasonAt] : '') || (Number.isFinite(code) ? importStatusMeaning(code) : 'failed');
    const reason = given!.length > maxReasonChars ? `${given!.slice(0, maxReasonChars)}…` : given!;
    into.set(email, Number.isFinite(code) ? { code, reason: `${code} ${reason}` } : { reason });
  }
  return counts;
}
