// Tables for people at a terminal (cli-table3, loaded only when a table is drawn).
import type { Cell } from './columns.js';
import { cellText } from './columns.js';

export async function renderTable(headers: string[], rows: Cell[][], color: boolean): Promise<string> {
  const [{ default: Table }, { Chalk }] = await Promise.all([import('cli-table3'), import('chalk')]);
  const chalk = new Chalk({ level: color ? 1 : 0 });
  const table = new Table({
    head: headers.map((h) => chalk.bold(h)),
    style: { head: [], border: [], compact: true },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
  });
  for (const row of rows) table.push(row.map((cell) => cellText(cell)));
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd().replace(/^ /, ''))
    .join('\n')}\n`;
}
