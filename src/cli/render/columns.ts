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
