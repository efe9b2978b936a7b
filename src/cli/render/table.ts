// Tables for people at a terminal (cli-table3, loaded only when a table is drawn), fitted to its width unless --wide.
import { styled, visible } from '../terminal-text.js';

export interface TableLayout {
  /** Columns never shortened: the first, and those marked key. */
  keys: boolean[];
  /** Columns whose lines are wrapped at spaces, not cut, when too wide (values a user needs whole). */
  wraps: boolean[];
  /** Each column's rank for leaving a narrow terminal (lowest first; undefined: stays). */
  drops?: Array<number | undefined>;
  /** Each column's width worth reading (0: any). */
  useful?: number[];
  /** The terminal's width; undefined draws every value whole (--wide). */
  width: number | undefined;
  color: boolean;
}

const noBorders = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
  ].map((part) => [part, '']),
);

/** `rows` hold each cell's text, lines separated by \n. Control characters in them are shown (terminal-text.ts) before
 * anything is measured or cut, so a cut never falls inside an escape sequence. */
export async function renderTable(headers: string[], rows: string[][], layout: TableLayout): Promise<string> {
  const drawer = new TableDrawer(headers, layout);
  let drawn = '';
  for (let at = 0; at === 0 || at < rows.length; at += tableBlockRows)
    drawn += await drawer.draw(rows.slice(at, at + tableBlockRows));
  return drawn;
}

/** Rows a table is drawn by: a long list at a terminal shows its first rows at once and holds one block, not every
 * row (cli-table3 also spreads its rows into one call, past the call stack at some 100,000). */
export const tableBlockRows = 1_000;

/** A table drawn block by block as its rows come, the header above the first only. The first block decides which
 * columns a narrow terminal keeps; a block is never narrower than the ones before it, so the columns stay in line
 * unless a later value needs more room (and the terminal has it: --wide, every value whole, always does). */
export class TableDrawer {
  private kept: number[] | undefined;
  /** Each kept column's width so far. */
  private widths: number[] = [];

  constructor(
    private readonly headers: string[],
    private readonly layout: TableLayout,
  ) {}

  async draw(blockRows: string[][]): Promise<string> {
    const [{ default: Table }, { Chalk }, fit] = await Promise.all([
      import('cli-table3'),
      import('chalk'),
      import('./fit.js'),
    ]);
    const first = this.kept === undefined;
    let headers = this.headers.map((header) => visibleCell(header));
    let rows = blockRows.map((row) => row.map((cell) => visibleCell(cell)));
    const kept = (this.kept ??= keptColumns(fit, headers, rows, this.layout));
    headers = pick(kept, headers, '');
    rows = rows.map((row) => pick(kept, row, ''));
    const fitted = fitRows(fit, headers, rows, viewOf(this.layout, kept), this.widths);
    this.widths = fitted.widths;
    const chalk = new Chalk({ level: this.layout.color ? 1 : 0 });
    const table = new Table({
      head: first ? headers.map((h) => chalk.bold(h)) : [],
      colWidths: fitted.widths,
      style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
      chars: { ...noBorders, middle: ' '.repeat(fit.columnGap) },
    });
    for (const row of fitted.rows) table.push(row);
    const text = table.toString();
    // Its only escape sequences are chalk's (the cells' were made visible): marked as ours for the terminal guard.
    return text
      ? styled(
          `${text
            .split('\n')
            .map((line) => line.trimEnd())
            .join('\n')}\n`,
        )
      : '';
  }
}

const pick = <T>(kept: number[], list: T[] | undefined, fill: T) => kept.map((i) => list?.[i] ?? fill);
/** The layout of the kept columns. */
const viewOf = (layout: TableLayout, kept: number[]): TableLayout => ({
  ...layout,
  keys: pick(kept, layout.keys, false),
  wraps: pick(kept, layout.wraps, false),
  useful: pick(kept, layout.useful, 0),
});

/** A cell's lines, each with its control characters shown (a tab too: it would break the columns). */
function visibleCell(cell: string): string {
  return cell.includes('\n')
    ? cell
        .split('\n')
        .map((line) => visible(line))
        .join('\n')
    : visible(cell);
}

type Fit = typeof import('./fit.js');

/** Columns this narrow hold enumerations and dates: cutting them would leave nothing readable. */
const shortColumn = 10;

/** The columns that fit the terminal: while the others would not fit, or a column would be cut below its useful
 * width, the column with the lowest drop rank goes. */
function keptColumns(fit: Fit, headers: string[], rows: string[][], layout: TableLayout): number[] {
  const kept = headers.map((_, i) => i);
  for (;;) {
    const cells = rows.map((row) => pick(kept, row, ''));
    const fitted = fitRows(fit, pick(kept, headers, ''), cells, viewOf(layout, kept), []);
    const ranked = kept.filter((i) => layout.drops?.[i] !== undefined);
    if (fitted.fits || !ranked.length) return kept;
    const next = ranked.reduce((a, b) => (layout.drops![b]! < layout.drops![a]! ? b : a));
    kept.splice(kept.indexOf(next), 1);
  }
}

/** The rows cut to the widths that fit the terminal (each column as wide as its widest line, or as `before`, when it
 * can be), and those widths; with no width (--wide), every value whole. */
function fitRows(
  fit: Fit,
  headers: string[],
  rows: string[][],
  { keys, wraps, width, useful }: TableLayout,
  before: number[],
): { rows: string[][]; widths: number[]; fits: boolean } {
  const { cellWidth, fitWidths, truncate, wrap } = fit;
  const natural = headers.map((h, i) => Math.max(cellWidth(h), before[i] ?? 0));
  for (const row of rows) row.forEach((cell, i) => (natural[i] = Math.max(natural[i]!, cellWidth(cell))));
  if (width === undefined) return { rows, widths: natural, fits: true };
  // Short columns (a status, a date, "in 3d") are never cut; a wrapped column keeps its longest word whole.
  const longestWord = headers.map((_, i) =>
    wraps[i]
      ? rows.reduce((most, row) => row[i]!.split(/[\s\n]+/).reduce((m, w) => Math.max(m, cellWidth(w) + 2), most), 0)
      : 0,
  );
  // A wrapped column keeps its longest word whole while that word is short (an email is cut past 24 columns).
  // A column's useful width is a minimum too: rather than cut below it, a column with a drop rank goes (keptColumns).
  const minimum = headers.map((h, i) =>
    natural[i]! <= shortColumn
      ? natural[i]!
      : Math.max(
          cellWidth(h),
          6,
          Math.min(longestWord[i]!, natural[i]!, wraps[i] ? 24 : Infinity),
          Math.min(natural[i]!, useful?.[i] ?? 0),
        ),
  );
  const widths = fitWidths(natural, minimum, keys, width);
  const fits = widths.reduce((a, b) => a + b, 0) + fit.columnGap * (widths.length - 1) <= width;
  if (widths.every((w, i) => w === natural[i])) return { rows, widths, fits };
  const cut = rows.map((row) =>
    row.map((cell, i) =>
      widths[i] === natural[i]
        ? cell
        : cell
            .split('\n')
            .flatMap((line) => (wraps[i] ? wrap(line, widths[i]!) : [truncate(line, widths[i]!)]))
            .join('\n'),
    ),
  );
  return { rows: cut, widths, fits };
}
