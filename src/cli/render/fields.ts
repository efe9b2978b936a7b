// --fields a,b (gh's --json a,b): only the named fields of each record. JSON keeps those keys of each object; CSV,
// TSV and tables keep the columns whose CSV header is named. `outreach mcp` shapes its answers with the same code.
import { UsageError } from '../../errors.js';
import { csvHeader, type Column } from './columns.js';
import { didYouMean } from '../flags.js';

/** The named fields of an object, in the order asked; anything else as it is. */
export function pickFields(value: unknown, fields: readonly string[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, record[f]]));
}

/** The columns --fields names, in its order; a name that is no column is refused with the ones there are. */
export function pickColumns<T>(columns: Column<T>[], fields: readonly string[]): Column<T>[] {
  const byName = new Map(columns.map((c) => [csvHeader(c.header), c]));
  const unknown = fields.find((f) => !byName.has(f));
  if (unknown !== undefined)
    throw new UsageError(
      `--fields: ${unknown} is not a column here${didYouMean(unknown, [...byName.keys()])}`,
      `Its columns: ${[...byName.keys()].join(', ')}. With --json, --fields names the keys of the records.`,
    );
  return fields.map((f) => byName.get(f)!);
}
