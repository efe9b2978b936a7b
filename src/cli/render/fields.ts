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

/** The fields of a single record, refusing a name it does not have (a list's records may each lack some: see
 * missingFields). */
export function pickRecordFields(value: unknown, fields: readonly string[]): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const unknown = fields.find((f) => !keys.includes(f));
    if (unknown !== undefined)
      throw new UsageError(
        `--fields: the record has no ${unknown}${didYouMean(unknown, keys)}`,
        `Its fields: ${keys.join(', ')}.`,
      );
  }
  return pickFields(value, fields);
}

/** The columns --fields names (any case), in its order; a name that is no column is refused with the ones there are. */
export function pickColumns<T>(columns: Column<T>[], fields: readonly string[]): Column<T>[] {
  const byName = new Map(columns.map((c) => [csvHeader(c.header).toLowerCase(), c]));
  const unknown = fields.find((f) => !byName.has(f.toLowerCase()));
  const names = columns.map((c) => csvHeader(c.header));
  if (unknown !== undefined)
    throw new UsageError(
      `--fields: ${unknown} is not a column here${didYouMean(unknown, names)}`,
      `Its columns: ${names.join(', ')}. With --json, --fields names the keys of the records.`,
    );
  return fields.map((f) => byName.get(f.toLowerCase())!);
}
