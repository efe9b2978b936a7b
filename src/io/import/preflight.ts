// The local checks every row passes before it may be sent: the CSV record itself, its email, and duplicates.
// The same checks run again when the results are written, so reasons never need to be kept in memory.
import type { CsvBadRow, CsvRow } from '../csv-reader.js';
import { emailProblem } from '../email.js';
import type { EmailIndex } from './email-index.js';

export type RowCheck = { ok: true; email: string } | { ok: false; email: string; reason: string };

export function isBadRow(record: CsvRow | CsvBadRow): record is CsvBadRow {
  return 'reason' in record;
}

/**
 * `record` mode remembers each new email (the sending pass); `lookup` mode only asks which row had it first
 * (the results pass), so a duplicate is told from its first occurrence in both.
 */
export function checkRow(
  record: CsvRow | CsvBadRow,
  emailColumn: number,
  emails: EmailIndex,
  mode: 'record' | 'lookup',
): RowCheck {
  if (isBadRow(record)) return { ok: false, email: record.fields?.[emailColumn]?.trim() ?? '', reason: record.reason };
  const email = (record.fields[emailColumn] ?? '').trim();
  if (!email) return { ok: false, email, reason: 'empty email' };
  const problem = emailProblem(email);
  if (problem) return { ok: false, email, reason: `invalid email: ${problem}` };
  const first = mode === 'record' ? emails.firstRowOf(email, record.row) : emails.lookup(email);
  if (first !== undefined && first !== record.row)
    return { ok: false, email, reason: `duplicate email: first seen on row ${first}` };
  return { ok: true, email };
}
