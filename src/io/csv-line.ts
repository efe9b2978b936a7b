// The one CSV encoder: every --csv on stdout and every CSV file the tool writes go through it. csv-stringify quotes
// (RFC 4180). Cells a spreadsheet would run as a formula get a leading quote (OWASP "CSV injection"), except in output
// meant to be read back as it is (--csv-raw, and files of the user's own rows to fix and import again).
import { stringify } from 'csv-stringify/sync';

export type CsvCell = string | number | boolean | null | undefined;

export interface CsvWriteOptions {
  /** Prefix cells starting with =, +, -, @, tab or CR with a quote. */
  neutraliseFormulas?: boolean;
  /** What ends a line (default \n). */
  lineEnding?: '\n' | '\r\n';
  /** What separates cells (default a comma). */
  delimiter?: string;
}

export function neutralise(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/** CSV lines (each ending in \n, or the line ending asked for) for rows of cells. */
export function csvLines(rows: readonly CsvCell[][], options: CsvWriteOptions = {}): string {
  const prepared = rows.map((fields) =>
    fields.map((field) => {
      const text = field === null || field === undefined ? '' : String(field);
      return options.neutraliseFormulas ? neutralise(text) : text;
    }),
  );
  // RFC 4180 quoting, and also around a lone CR (csv-stringify leaves it bare, and Excel and Python then see a line
  // break) and around spaces at a value's edges (readers that trim unquoted values would lose them).
  return stringify(prepared, {
    record_delimiter: options.lineEnding ?? '\n',
    delimiter: options.delimiter ?? ',',
    quoted_match: [/\r/, /^\s|\s$/],
  });
}
