// Third-party CSV parser suites (fixtures/corpora, see its SOURCES.md) read by our reader. Each case is `same` (the
// suite's records), `refused` (the suite reports an error there, or the record holds a NUL, and we reject that row or
// stop the file naming the line: nothing wrong is sent), or differs on purpose, with the reason listed below. A case
// that differs without a listed reason fails, and so does a listed one that no longer differs.
import { readdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openCsv, type CsvReadOptions } from '../../src/io/csv-reader.js';

const corpora = new URL('../../fixtures/corpora/', import.meta.url);
const json = (path: string) => JSON.parse(readFileSync(new URL(path, corpora), 'utf8'));

type Record = string[] | { [column: string]: string };
interface Read {
  records: Array<{ fields: Record; bad: boolean }>;
  error?: string;
}

async function read(bytes: Buffer, options: CsvReadOptions & { objects?: boolean }): Promise<Read> {
  const records: Read['records'] = [];
  try {
    const source = await openCsv(Readable.from([bytes]), { name: 'case.csv', ...options });
    const header = source.header;
    if (!options.objects && options.header !== false) records.push({ fields: header, bad: false });
    for await (const row of source.rows) {
      const fields = row.fields ?? [];
      const record = options.objects ? Object.fromEntries(header.map((h, i) => [h, fields[i]!])) : fields;
      records.push({ fields: record, bad: 'reason' in row });
    }
    return { records };
  } catch (error) {
    return { records, error: (error as Error).message };
  }
}

/** Blank lines, and lines of delimiters alone (`,,`: a spreadsheet's empty rows), are no records for us (rows keep
 * their file line numbers instead): they hold no value to send or report. */
const notBlank = (record: Record) => !Object.values(record).every((value) => String(value).trim() === '');
const holdsNul = (record: Record) => Object.values(record).some((value) => String(value).includes('\0'));

function outcome(got: Read, expected: Record[], suiteSaysError: boolean): 'same' | 'refused' | 'differs' {
  const want = expected.filter(notBlank);
  const fields = got.records.map((r) => r.fields);
  const anyBad = got.records.some((r) => r.bad);
  if (!got.error && !anyBad && JSON.stringify(fields) === JSON.stringify(want)) return 'same';
  // Read as the suite reads it, and the row refused (Python joins text after a closing quote to the value).
  if (!got.error && anyBad && JSON.stringify(fields) === JSON.stringify(want)) return 'refused';
  // The suite reports an error there (its records past it are its own guess), or a value holds a NUL: we refuse.
  if ((suiteSaysError || want.some(holdsNul)) && (anyBad || got.error)) return 'refused';
  return 'differs';
}

/** Where we read differently on purpose, and why. */
const deliberate: { [id: string]: string } = {
  'python test_space_and_quote': 'spaces before an opening quote are layout: ` "a"` reads a, not the quotes as data',
  'papaparse CORE_PARSER_TESTS#17': 'spaces around a quoted field are layout: ` "B" ` reads B (Python agrees after it)',
  'papaparse CORE_PARSER_TESTS#59': 'duplicate column names are kept as written; the import names both columns',
  'papaparse CORE_PARSER_TESTS#61': 'duplicate column names are kept as written; the import names both columns',
  'papaparse CORE_PARSER_TESTS#62': 'duplicate column names are kept as written; the import names both columns',
  'papaparse PARSE_TESTS#9':
    'a lone CR ends a record wherever it stands (as Python), not only when the first line used it',
  'fast-csv withHeadersAndAlternateQuote': "there is no --quote option: ' is data, as Excel and Python read it",
  'csvkit mac_newlines.csv': "a line break inside quotes is kept as written (a CR); csvkit's value is csvclean's LF",
  'fast-csv withHeadersAndMissingColumns':
    'a row with fewer cells than the header is refused with the count, not padded',
  'fast-csv duplicateHeaders': 'duplicate column names are kept as written; the import names both columns',
};

interface Case {
  id: string;
  got: Promise<Read>;
  expected: Record[];
  suiteSaysError: boolean;
}

function cases(): Array<[string, Case[]]> {
  const python = json('python-csv/cases.json').cases.map((c: any) => ({
    id: `python ${c.name}`,
    got: read(Buffer.from(c.input), { header: false, delimiter: ',' }),
    expected: c.data,
    suiteSaysError: false,
  }));
  const papaparse = json('papaparse/cases.json').cases.map((c: any) => ({
    id: `papaparse ${c.set}#${c.index}`,
    got: read(Buffer.from(c.input), {
      header: Boolean(c.config.header),
      objects: Boolean(c.config.header) && !Array.isArray(c.data[0]),
      delimiter: c.config.delimiter,
    }),
    expected: c.data.map((r: any) => (Array.isArray(r) ? r : Object.fromEntries(Object.entries(r)))),
    suiteSaysError: c.errors.length > 0,
  }));
  const spectrum = readdirSync(new URL('csv-spectrum/csvs/', corpora)).map((name) => ({
    id: `csv-spectrum ${name}`,
    got: read(readFileSync(new URL(`csv-spectrum/csvs/${name}`, corpora)), { objects: true }),
    expected: json(`csv-spectrum/json/${name.replace('.csv', '.json')}`),
    suiteSaysError: false,
  }));
  const csvkit = Object.entries(json('csvkit/expected.json')).map(([name, c]: [string, any]) => ({
    id: `csvkit ${name}`,
    got: read(readFileSync(new URL(`csvkit/${name}`, corpora)), {
      header: false,
      encoding: c.encoding === 'latin1' ? 'latin1' : undefined,
    }),
    expected: c.rows,
    suiteSaysError: false,
  }));
  const fastCsvOptions: { [name: string]: CsvReadOptions } = {
    alternateEncoding: { encoding: 'utf16le' },
    withHeadersAndSkippedLines: { skipLines: 2 },
  };
  const fastCsv = readdirSync(new URL('fast-csv/', corpora))
    .filter((name) => name.endsWith('.csv'))
    .map((file) => {
      const name = file.replace('.csv', '');
      const expected = json(`fast-csv/${name}.expected.json`).parsed;
      return {
        id: `fast-csv ${name}`,
        got: read(readFileSync(new URL(`fast-csv/${file}`, corpora)), { objects: true, ...fastCsvOptions[name] }),
        expected,
        // fast-csv's tests expect an error event where they parse nothing, or fewer rows than the file has.
        suiteSaysError: expected.length === 0 || name === 'headerColumnMismatch',
      };
    });
  return [
    ['python-csv', python],
    ['papaparse', papaparse],
    ['csv-spectrum', spectrum],
    ['csvkit', csvkit],
    ['fast-csv', fastCsv],
  ];
}

describe('third-party CSV suites', () => {
  it('read as the suites say, or differ for a reason given here', async () => {
    const summary: { [corpus: string]: { ran: number; same: number; refused: number; deliberate: number } } = {};
    const unexplained: string[] = [];
    const stale: string[] = [];
    for (const [corpus, list] of cases()) {
      const counts = (summary[corpus] = { ran: 0, same: 0, refused: 0, deliberate: 0 });
      for (const c of list) {
        counts.ran++;
        const result = outcome(await c.got, c.expected, c.suiteSaysError);
        if (result === 'differs') {
          if (deliberate[c.id]) counts.deliberate++;
          else unexplained.push(`${c.id}: want ${JSON.stringify(c.expected)}, got ${JSON.stringify(await c.got)}`);
        } else {
          counts[result]++;
          if (deliberate[c.id]) stale.push(c.id);
        }
      }
    }
    expect(unexplained).toEqual([]);
    expect(stale).toEqual([]);
    expect(summary).toEqual({
      'python-csv': { ran: 34, same: 25, refused: 8, deliberate: 1 },
      papaparse: { ran: 88, same: 76, refused: 7, deliberate: 5 },
      'csv-spectrum': { ran: 11, same: 11, refused: 0, deliberate: 0 },
      csvkit: { ran: 8, same: 6, refused: 1, deliberate: 1 },
      'fast-csv': { ran: 14, same: 9, refused: 2, deliberate: 3 },
    });
  });
});
