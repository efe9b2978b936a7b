// The local checks every row passes before it may be sent: the CSV record itself, its email, the do-not-contact lists,
// and duplicates.
// The same checks run again when the results are written, so reasons never need to be kept in memory.
import type { CsvBadRow, CsvRow } from '../csv-reader.js';
import { emailProblem } from '../email.js';
import type { DncSet } from './dnc-set.js';
import { canonicalDncKey } from '../dnc-values.js';
import type { EmailIndex } from './email-index.js';
import { visible } from '../../visible-text.js';

/** `list`: the number of the do-not-contact list that stopped the row (`seen`: a row an earlier run took on, a resume
 * after the lists changed). `listedNow`: the list that holds a row which goes by an earlier run's verdict, sent only in
 * the very chunk accepted then. */
export type RowCheck =
  | { ok: true; email: string; listedNow?: number }
  | { ok: false; email: string; reason: string; list?: number; seen?: boolean };

/** The do-not-contact lists rows are checked against, and their ids and names by number. */
export interface Suppression {
  set: DncSet;
  lists: Array<{ id: string; name: string }>;
  /** What the lists stopped in an earlier run, for a resume after they changed (earlier-stops.ts). */
  earlier?: EarlierVerdicts;
}

/** An earlier run's verdicts, by row: a row of a chunk the service accepted then goes by them alone; any other row is
 * stopped by a list that stopped it then or holds it now. */
export interface EarlierVerdicts {
  /** The list (by number) that stopped the row then, if its email is as it was; and whether an earlier run had taken
   * the row on before (its email counts as seen for the duplicates after it). */
  stopOf(row: number, key: string): { list: number; seen: boolean } | undefined;
  /** The row lies in a chunk the service accepted. */
  keeps(row: number): boolean;
  /** The row lies in a chunk that was sent and never answered: the service may hold it. */
  sentMaybe(row: number): boolean;
  /** The last row of chunk `index` as the earlier run formed it; undefined past the chunks it recorded. */
  lastRowOf(index: number): number | undefined;
}

/** The list that stops a row (-1: none), and whether an earlier run took it on (`seen`); for a row of an accepted
 * chunk, the list that holds it now; for a row the lists stop now only, whether the service may hold it. */
function listOfRow(
  suppression: Suppression,
  key: string,
  row: number,
): { list: number; seen?: boolean; listedNow?: number; sentMaybe?: boolean } {
  const { earlier } = suppression;
  if (!earlier) return { list: suppression.set.listOfEmail(key) };
  const then = earlier.stopOf(row, key);
  if (then) return then;
  const now = suppression.set.listOfEmail(key);
  if (now < 0) return { list: -1 };
  if (earlier.keeps(row)) return { list: -1, listedNow: now };
  // Stopped by the lists of now only: the earlier run (if it came this far) took it on.
  return { list: now, seen: true, sentMaybe: earlier.sentMaybe(row) };
}

/** A value longer than this is no prospect field: a broken file, or a document pasted in a cell. */
export const maxValueChars = 1024 * 1024;

/** Bytes that were not text in the file's encoding (decoded as U+FFFD), or a value far too long to be a field. */
function oddValue(fields: string[]): string | undefined {
  for (let column = 0; column < fields.length; column++) {
    const value = fields[column]!;
    if (value.length > maxValueChars)
      return `column ${column + 1} holds ${(value.length / 2 ** 20).toFixed(1)} MB; a field value is at most 1 MB`;
    if (value.includes('\uFFFD'))
      return `column ${column + 1} holds bytes that are not UTF-8; save the file as "CSV UTF-8" or give --encoding windows-1252`;
  }
  return undefined;
}

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
  suppression?: Suppression,
): RowCheck {
  if (isBadRow(record)) return { ok: false, email: record.fields[emailColumn]?.trim() ?? '', reason: record.reason };
  const email = (record.fields[emailColumn] ?? '').trim();
  const odd = oddValue(record.fields);
  if (odd) return { ok: false, email, reason: odd };
  if (!email) return { ok: false, email, reason: 'empty email' };
  const problem = emailProblem(email);
  if (problem) return { ok: false, email, reason: `invalid email: ${problem}` };
  // One form for the address, however it is written, for both the lists and the duplicates.
  const key = canonicalDncKey(email);
  // Before duplicates: every row of a listed email says so, not only its first.
  const { list, seen, listedNow, sentMaybe } = suppression ? listOfRow(suppression, key, record.row) : { list: -1 };
  if (list >= 0) {
    // A resume after the lists changed: the rows of accepted chunks come out as the run that sent them formed them,
    // which took the later copies of an email it had taken on for duplicates.
    const first = !seen ? undefined : mode === 'record' ? emails.firstRowOf(key, record.row) : emails.lookup(key);
    const reason = `on do-not-contact list "${visible(suppression!.lists[list]!.name)}"`;
    // Sent by an earlier run whose answer was lost (unless a copy before it went instead): not sent again, but the
    // service may have it.
    const maybe =
      sentMaybe && (first === undefined || first === record.row)
        ? ' now; an earlier run sent it and its answer was lost: the service may hold it'
        : '';
    return { ok: false, email, reason: reason + maybe, list, ...(seen ? { seen } : {}) };
  }
  const first = mode === 'record' ? emails.firstRowOf(key, record.row) : emails.lookup(key);
  if (first !== undefined && first !== record.row)
    return { ok: false, email, reason: `duplicate email: first seen on row ${first}` };
  return listedNow === undefined ? { ok: true, email } : { ok: true, email, listedNow };
}
