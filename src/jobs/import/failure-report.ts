// Reads a failed-rows report (the CSV behind failedProspectsURL / reportURL) into email -> reason.
// Its columns are not documented: find the email column, and a code and a reason column if there are any.
// The report is the service's word, not the user's file: it is streamed, and only rows for emails of the user's file
// are kept, so memory follows the file whatever the report's size.
import { importStatusMeaning } from '../../api/contract/prospects.js';
import { reportRows } from '../report-rows.js';
import { canonicalDncKey } from '../../io/dnc-values.js';

export { maxReportRecordChars } from '../report-rows.js';
export interface RowFailure {
  code?: number;
  reason: string;
}

/** The service left these rows as they were because of the conflict action: nothing for the user to fix. */
export const unchangedCodes = new Set([10400, 10500]);

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
  const counts: FailureReportCounts = { rows: 0, kept: 0, ignored: 0 };
  const columns = { email: /e-?mail/i, code: /code|status/i, reason: /reason|error|message|detail/i };
  for await (const row of reportRows(path, columns, 'email')) {
    counts.rows++;
    // In the form the file's emails are indexed in (canonicalDncKey): the service may write a domain as IDNA's ASCII.
    const email = canonicalDncKey((row.email ?? '').trim());
    if (!email || !inFile(email)) {
      counts.ignored++;
      continue;
    }
    counts.kept++;
    // A code column's empty cell reads as code 0 and a short row's missing one as no code, as they always have.
    const code = row.code !== undefined ? Number(row.code) : NaN;
    const given = row.reason || (Number.isFinite(code) ? importStatusMeaning(code) : 'failed');
    const reason = given.length > maxReasonChars ? `${given.slice(0, maxReasonChars)}…` : given;
    into.set(email, Number.isFinite(code) ? { code, reason: `${code} ${reason}` } : { reason });
  }
  return counts;
}
