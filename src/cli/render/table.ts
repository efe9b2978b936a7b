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
  headers = headers.map((header) => visibleCell(header));
  rows = rows.map((row) => row.map((cell) => visibleCell(cell)));
  const [{ default: Table }, { Chalk }, fit] = await Promise.all([
    import('cli-table3'),
    import('chalk'),
    import('./fit.js'),
  ]);
  const chalk = new Chalk({ level: layout.color ? 1 : 0 });
  if (layout.width !== undefined) ({ headers, rows } = fitTable(fit, headers, rows, layout));
  // cli-table3 spreads its rows into one call (past the call stack at some 100,000): a long table is drawn in blocks,
  // every block at the widths of the whole (the widest line of each column), the header above the first only.
  const widths =
    rows.length > blockRows
      ? headers.map((header, i) =>
          rows.reduce(
            (most, row) => row[i]!.split('\n').reduce((m, line) => Math.max(m, fit.cellWidth(line)), most),
            fit.cellWidth(header),
          ),
        )
      : undefined;
  const drawn: string[] = [];
  for (let at = 0; at === 0 || at < rows.length; at += blockRows) {
    const table = new Table({
      head: at === 0 ? headers.map((h) => chalk.bold(h)) : [],
      ...(widths ? { colWidths: widths } : {}),
      style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
      chars: { ...noBorders, middle: ' '.repeat(fit.columnGap) },
    });
    for (const row of rows.slice(at, at + blockRows)) table.push(row);
    drawn.push(table.toString());
  }
  // Its only escape sequences are chalk's (the cells' were made visible): marked as ours for the terminal guard.
  return styled(
    `${drawn
      .join('\n')
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')}\n`,
  );
}

const blockRows = 1_000;

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
 * width, the column with the lowest drop rank goes; then the rest are fitted. */
function fitTable(fit: Fit, headers: string[], rows: string[][], layout: TableLayout) {
  const kept = headers.map((_, i) => i);
  const pick = <T>(list: T[] | undefined, fill: T) => kept.map((i) => list?.[i] ?? fill);
  for (;;) {
    const view = {
      ...layout,
      keys: pick(layout.keys, false),
      wraps: pick(layout.wraps, false),
      useful: pick(layout.useful, 0),
    };
    const table = { headers: pick(headers, ''), rows: rows.map((row) => kept.map((i) => row[i]!)) };
    const fitted = fitRows(fit, table.headers, table.rows, view);
    const ranked = kept.filter((i) => layout.drops?.[i] !== undefined);
    if (fitted.fits || !ranked.length) return { headers: table.headers, rows: fitted.rows };
    const next = ranked.reduce((a, b) => (layout.drops![b]! < layout.drops![a]! ? b : a));
    kept.splice(kept.indexOf(next), 1);
  }
}

function fitRows(
  fit: Fit,
  headers: string[],
  rows: string[][],
  { keys, wraps, width, useful }: TableLayout,
): { rows: string[][]; fits: boolean } {
  const { cellWidth, fitWidths, truncate, wrap } = fit;
  const natural = headers.map((h) => cellWidth(h));
  for (const row of rows) row.forEach((cell, i) => (natural[i] = Math.max(natural[i]!, cellWidth(cell))));
  // Short columns (a status, a date, "in 3d") are never cut; a wrapped column keeps its longest word whole.
  const longestWord = headers.map((_, i) =>
    wraps[i]
      ? rows.reduce((most, row) => row[i]!.split(/[\s\n]+/).reduce((m, w) => Math.max(m, cellWidth(w) + 2), most), 0)
      : 0,
  );
  // A wrapped column keeps its longest word whole while that word is short (an email is cut past 24 columns).
  // A column's useful width is a minimum too: rather than cut below it, a column with a drop rank goes (fitTable).
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
  const widths = fitWidths(natural, minimum, keys, width!);
  const fits = widths.reduce((a, b) => a + b, 0) + fit.columnGap * (widths.length - 1) <= width!;
  if (widths.every((w, i) => w === natural[i])) return { rows, fits };
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
  return { rows: cut, fits };
}
