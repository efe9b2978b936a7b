// The results pass: once every chunk completed, read the input again and write, in input order,
// <name>.results.csv (row, email, outcome, reason for every row) and <name>.failed.csv (failed and rejected
// rows in the input's own columns, ready to fix and import again).
import { createReadStream, rmSync } from 'node:fs';
import { Interrupted } from '../../errors.js';
import { openCsv, type CsvReadOptions } from '../../io/csv-reader.js';
import { createCsvFileWriter } from '../../io/csv-file-writer.js';
import type { EmailIndex } from '../../io/import/email-index.js';
import { checkRow, type Suppression } from '../../io/import/preflight.js';
import { canonicalDncKey } from '../../io/dnc-values.js';
import type { JobContext } from '../context.js';
import { unchangedCodes, type RowFailure } from './failure-report.js';

export interface ResultsPassOptions {
  path: string;
  csv: CsvReadOptions;
  emailColumn: number;
  /** Email (canonicalDncKey's form) -> code and reason, for every row the service did not take. */
  failures: Map<string, RowFailure>;
  resultsPath: string;
  failedPath: string;
  /** Chunks sent again after a lost answer: "unchanged" there may mean our own first attempt wrote the row. */
  replayed?: RowRange[];
  /** Chunks whose outcome is not known (their report could not be downloaded), with why. */
  unknown?: Array<RowRange & { reason: string }>;
  /** The do-not-contact lists the sending pass checked rows against. */
  suppression?: Suppression;
}

interface RowRange {
  firstRow: number;
  lastRow: number;
}

export interface ResultsCounts {
  succeeded: number;
  unchanged: number;
  failed: number;
  rejected: number;
  unknown: number;
  /** Rows written to the failed file: failed and rejected, but those on a do-not-contact list (not to be sent). */
  toFix: number;
}

const inRange = (row: number) => (range: RowRange) => row >= range.firstRow && row <= range.lastRow;

export async function resultsPass(
  ctx: Pick<JobContext, 'signal'>,
  emails: EmailIndex,
  options: ResultsPassOptions,
): Promise<ResultsCounts> {
  const source = await openCsv(createReadStream(options.path), options.csv);
  // A report to read (formula-like cells neutralised); the failed rows, in the user's own columns, to fix and import
  // again byte for byte.
  const results = await createCsvFileWriter(options.resultsPath, ['row', 'email', 'outcome', 'reason'], {
    neutraliseFormulas: true,
  });
  const failed = await createCsvFileWriter(options.failedPath, source.header, { marks: source.marks });
  const counts: ResultsCounts = { succeeded: 0, unchanged: 0, failed: 0, rejected: 0, unknown: 0, toFix: 0 };
  const toFix = async (record: Parameters<typeof failed.writeRecord>[1]) => {
    counts.toFix++;
    await failed.writeRecord([], record, source.delimiter);
  };
  try {
    for await (const batch of source.batches)
      for (const record of batch.rows) {
        if (ctx.signal.aborted) throw new Interrupted();
        const check = checkRow(record, options.emailColumn, emails, 'lookup', options.suppression);
        if (!check.ok) {
          counts.rejected++;
          await results.write([record.row, check.email, 'rejected', check.reason]);
          if (check.list === undefined) await toFix(record);
          continue;
        }
        const unknown = options.unknown?.find(inRange(record.row));
        if (unknown) {
          counts.unknown++;
          await results.write([record.row, check.email, 'unknown', unknown.reason]);
          continue;
        }
        const failure = options.failures.get(canonicalDncKey(check.email));
        const unchanged = failure?.code !== undefined && unchangedCodes.has(failure.code);
        if (unchanged && options.replayed?.some(inRange(record.row))) {
          counts.succeeded++;
          const reason = `${failure!.reason} on a resend after a lost answer: the first attempt may have written it`;
          await results.write([record.row, check.email, 'succeeded', reason]);
        } else if (unchanged) {
          counts.unchanged++;
          await results.write([record.row, check.email, 'unchanged', failure.reason]);
        } else if (failure) {
          counts.failed++;
          await results.write([record.row, check.email, 'failed', failure.reason]);
          await toFix(record);
        } else {
          counts.succeeded++;
          await results.write([record.row, check.email, 'succeeded', '']);
        }
      }
    await results.commit();
    // No file of rows to fix when there are none.
    if (counts.toFix) await failed.commit();
    else {
      // Nothing to fix: no file, not even one an earlier run of this input left (its rows would mislead).
      await failed.abort();
      rmSync(options.failedPath, { force: true });
    }
    return counts;
  } catch (error) {
    await results.abort();
    await failed.abort();
    throw error;
  }
}
