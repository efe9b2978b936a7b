// Tables for people at a terminal (cli-table3, loaded only when a table is drawn), fitted to its width unless --wide.
import { styled, visible } from '../terminal-text.js';

export interface TableLayout {
  /** Columns never shortened: the first, and those marked key. */
  keys: boolean[];
  /** Columns whose lines are wrapped at spaces, not cut, when too wide (values a user needs whole). */
  wraps: boolean[];
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
  if (layout.width !== undefined) rows = fitRows(fit, headers, rows, layout);
  const table = new Table({
    head: headers.map((h) => chalk.bold(h)),
    style: { head: [], border: [], compact: true, 'padding-left': 0, 'padding-right': 0 },
    chars: { ...noBorders, middle: ' '.repeat(fit.columnGap) },
  });
  table.push(...rows);
  // Its only escape sequences are chalk's (the cells' were made visible): marked as ours for the terminal guard.
  return styled(
    `${table
      .toString()
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')}\n`,
  );
}

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

function fitRows(fit: Fit, headers: string[], rows: string[][], { keys, wraps, width }: TableLayout): string[][] {
  const { cellWidth, fitWidths, truncate, wrap } = fit;
  const natural = headers.map((h) => cellWidth(h));
  for (const row of rows) row.forEach((cell, i) => (natural[i] = Math.max(natural[i]!, cellWidth(cell))));
  // Short columns (a status, a date, "in 3d") are never cut; a wrapped column keeps its longest word whole.
  const longestWord = headers.map((_, i) =>
    wraps[i] ? Math.max(0, ...rows.flatMap((row) => row[i]!.split(/[\s\n]+/).map((w) => cellWidth(w) + 2))) : 0,
  );
  const minimum = headers.map((h, i) =>
    natural[i]! <= shortColumn ? natural[i]! : Math.max(cellWidth(h), 6, Math.min(longestWord[i]!, natural[i]!)),
  );
  const widths = fitWidths(natural, minimum, keys, width!);
  if (widths.every((w, i) => w === natural[i])) return rows;
  return rows.map((row) =>
    row.map((cell, i) =>
      widths[i] === natural[i]
        ? cell
        : cell
            .split('\n')
            .flatMap((line) => (wraps[i] ? wrap(line, widths[i]!) : [truncate(line, widths[i]!)]))
            .join('\n'),
    ),
  );
}
