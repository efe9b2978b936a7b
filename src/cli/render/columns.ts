export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  header: string;
  value(row: T): Cell;
  /** Never shortened to fit a terminal (names a user looks rows up by); the first column always is one. */
  key?: boolean;
  /** A terminal table's cell on several lines, for values that read better so (a schedule's week, mailboxes). */
  lines?(row: T): string[];
  /** On a terminal too narrow for every column, columns with a rank go, the lowest rank first, before the others are
   * cut below `useful` (or do not fit at all). --wide shows them all. */
  drop?: number;
  /** How wide the column must stay to be worth reading (a title); narrower, a column with a rank goes instead. */
  useful?: number;
  /** What a terminal table shows instead of `value` (a date, local and short); data (TSV, CSV, JSON) keeps `value`. */
  shown?(row: T): string;
  /** In data (TSV, CSV) only: a terminal table says it otherwise (the fixes `domains check` lists under it). */
  dataOnly?: boolean;
}

/** A point in time: ISO 8601 as the service gave it in data; in a terminal table, local and to the minute
 * (`2026-02-04 13:00`), the one date style of tables (due dates: relative, `in 3d`). */
export function dateColumn<T>(
  header: string,
  at: (row: T) => string | null | undefined,
  more: Partial<Column<T>> = {},
): Column<T> {
  return { header, value: (row) => at(row) ?? '', shown: (row) => localMinute(at(row)), ...more };
}

function localMinute(iso: string | null | undefined): string {
  const date = iso ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return iso ?? '';
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ` +
    `${two(date.getHours())}:${two(date.getMinutes())}`
  );
}

/** A column's name in CSV, one style for every CSV the tool writes (`taskId,reason`, `value,type,createdAt`): a
 * table header in capitals becomes a camelCase name (`CALL OUTCOME` -> `callOutcome`, `ID` -> `id`); a header in the
 * user's own words (a field label such as `First Name`, which `prospects import` maps back) stays as it is. */
export function csvHeader(header: string): string {
  if (header !== header.toUpperCase() || !/[A-Z]/.test(header)) return header;
  const [first = '', ...rest] = header
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  return first + rest.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

export function cellText(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no';
  return String(cell);
}

/** One line per row for scripts: tabs and newlines inside a value become spaces. */
export function tsvLine(cells: Cell[]): string {
  return cells.map((c) => cellText(c).replace(/[\t\r\n]+/g, ' ')).join('\t');
}
