// Which CSV columns feed which field: by header matched against field labels (ignoring case, spaces, _ and -), by a
// known export's header, or as the user said with --map / --mapping. Unknown columns stop the import unless
// --ignore-unknown. Several export columns for one field (Apollo's phones), or several the user mapped to one field,
// feed it together: each row takes the first of them that is not empty.
import { UsageError } from '../../errors.js';
import { closest } from './closest.js';
import { couldBeEmail, recogniseExport, synonymField, synonymRank } from './header-synonyms.js';

export interface FieldInfo {
  id: string;
  label: string;
}

export interface MappedColumn {
  field: FieldInfo;
  /** The columns that feed the field, in the order they are tried: a row takes the first that is not empty. */
  sources: Array<{ index: number; header: string }>;
}

export interface ColumnMapping {
  columns: MappedColumn[];
  ignored: string[];
  /** Fields fed through a known export's headers ("Email Address" -> Email), to say which were. */
  bySynonym: MappedColumn[];
  /** The tool whose export the file is ("LinkedIn", "Apollo"), when its headers say so. */
  exportOf?: string;
  emailIndex: number;
  /** The mapping as a file would hold it: every column -> field label, or null when ignored. */
  asJson(): Record<string, string | null>;
}

export interface MappingOptions {
  /** `--map "Work Email=Email"` pairs. */
  maps: string[];
  /** `--mapping map.json`, as read: {"column": "Field label" | null}. */
  mappingFile?: { name: string; text: string };
  ignoreUnknown: boolean;
}

export const normaliseName = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

function parseMappingFile({ name: path, text }: { name: string; text: string }): Record<string, string | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--mapping: ${path} is not JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--mapping: ${path} must hold an object {"CSV column": "Field label" or null}`);
  for (const [column, label] of Object.entries(parsed)) {
    if (label !== null && typeof label !== 'string')
      throw new UsageError(`--mapping: ${path}: "${column}" must map to a field label or null`);
  }
  return parsed as Record<string, string | null>;
}

// eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
export function buildMapping(header: string[], fields: FieldInfo[], options: MappingOptions): ColumnMapping {
  const fieldByName = new Map(fields.map((f) => [normaliseName(f.label), f]));
  // Normalised column name -> {as the user wrote it, field label or null for "ignore"}; --map wins over --mapping.
  const explicit = new Map<string, { column: string; label: string | null }>();
  if (options.mappingFile) {
    for (const [column, label] of Object.entries(parseMappingFile(options.mappingFile)))
      explicit.set(normaliseName(column), { column, label });
  }
  for (const pair of options.maps) {
    const at = pair.lastIndexOf('=');
    if (at <= 0) throw new UsageError(`--map "${pair}": expected "CSV column=Field label"`);
    const column = pair.slice(0, at);
    explicit.set(normaliseName(column), { column, label: pair.slice(at + 1).trim() || null });
  }

  const known = new Set(header.map(normaliseName));
  const exportOf = recogniseExport([...known]);
  for (const [key, { column }] of explicit) {
    if (!known.has(key))
      throw new UsageError(
        `--map/--mapping names column "${column}", which the file does not have`,
        `The columns are: ${header.join(', ')}`,
      );
  }

  // Two columns that could each be the email (Email and Personal Email), and no word from the user on either: which
  // one is the prospect's is not ours to guess.
  const emailCandidates = header.filter((name) => couldBeEmail(normaliseName(name)));
  const emailChosen = [...explicit.values()].some(({ label }) => label !== null && normaliseName(label) === 'email');
  if (emailCandidates.length > 1 && !emailChosen && !emailCandidates.some((c) => explicit.has(normaliseName(c))))
    throw new AmbiguousEmailColumns(emailCandidates);

  const columns: MappedColumn[] = [];
  const ignored: string[] = [];
  const unknown: string[] = [];
  const explicitFields = new Set(
    [...explicit.values()].flatMap(({ label }) => (label === null ? [] : [fieldByName.get(normaliseName(label))?.id])),
  );
  /** How each field's column was found: a second column of the same kind joins it (never beside its own name). */
  const byField = new Map<string, { column: MappedColumn; how: 'explicit' | 'own' | 'synonym' }>();
  header.forEach((name, index) => {
    const key = normaliseName(name);
    let field: FieldInfo | undefined;
    let how: 'explicit' | 'own' | 'synonym' = 'own';
    if (explicit.has(key)) {
      how = 'explicit';
      const { label } = explicit.get(key)!;
      if (label === null) return ignored.push(name);
      field = fieldByName.get(normaliseName(label));
      if (!field) {
        const hint = closest(
          label,
          fields.map((f) => f.label),
          normaliseName,
        );
        throw new UsageError(
          `--map: "${name}" points to "${label}", which is not a field${hint.length ? ` (closest: ${hint.join(', ')})` : ''}`,
          'See `outreach fields list --system`.',
        );
      }
    } else if (emailChosen && couldBeEmail(key)) {
      // The user named the email column: the other email columns are set aside, not stopped on.
      return ignored.push(name);
    } else {
      field = fieldByName.get(key);
      const synonym = normaliseName(synonymField(key) ?? '');
      if (!field && fieldByName.has(synonym)) {
        // A synonym stands back when another column carries the field's own name ("Mobile Phone" beside "Phone
        // Number", Outlook's salutation "Title" beside "Job Title"): that column is set aside, not stopped on.
        // So does it when the user mapped a column to that field (--map "Mobile Phone=Phone Number").
        if (known.has(synonym) || explicitFields.has(fieldByName.get(synonym)!.id)) return ignored.push(name);
        field = fieldByName.get(synonym)!;
        how = 'synonym';
      }
    }
    if (!field) {
      if (options.ignoreUnknown || name === '' || exportOf) ignored.push(name);
      else unknown.push(name);
      return;
    }
    const earlier = byField.get(field.id);
    // The email is one column: it is what the checks and the duplicate index read. Later email columns of an export
    // (E-mail 2, Secondary Email) are set aside.
    const isEmail = normaliseName(field.label) === 'email';
    if (earlier && earlier.how === 'synonym' && how === 'synonym' && isEmail) return ignored.push(name);
    if (earlier && earlier.how === how && how !== 'own' && !isEmail) {
      earlier.column.sources.push({ index, header: name });
      return;
    }
    if (earlier)
      throw new UsageError(
        `columns "${earlier.column.sources[0]!.header}" and "${name}" both map to the field "${field.label}"`,
        'Map one of them elsewhere, or ignore it with --map "COLUMN=".',
      );
    const column = { field, sources: [{ index, header: name }] };
    byField.set(field.id, { column, how });
    columns.push(column);
  });
  // The order sources are tried in: an export's columns best first (header-synonyms.ts), the user's as given.
  const explicitOrder = [...explicit.keys()];
  const rank = (how: string, header: string) =>
    how === 'synonym' ? synonymRank(header) : explicitOrder.indexOf(normaliseName(header));
  for (const { column, how } of byField.values()) {
    column.sources.sort((a, b) => rank(how, a.header) - rank(how, b.header));
  }
  const bySynonym = [...byField.values()].filter(({ how }) => how === 'synonym').map(({ column }) => column);

  if (unknown.length) {
    const lines = unknown.map((name) => {
      const hint = closest(
        name,
        fields.map((f) => f.label),
        normaliseName,
      );
      return `  "${name}"${hint.length ? ` — closest fields: ${hint.join(', ')}` : ' — no similar field'}`;
    });
    throw new UsageError(
      `${unknown.length === 1 ? 'a column matches' : `${unknown.length} columns match`} no field:\n${lines.join('\n')}`,
      'Map them with --map "COLUMN=Field label", skip them with --ignore-unknown, or create the fields in the app first.',
    );
  }
  const email = columns.find((c) => normaliseName(c.field.label) === 'email');
  if (!email)
    throw new UsageError(
      'no column maps to the Email field, and every prospect needs one',
      `Name the column "Email" or add --map "YOUR COLUMN=Email". The columns are: ${header.join(', ')}`,
    );

  return {
    columns,
    ignored,
    bySynonym,
    exportOf,
    emailIndex: email.sources[0]!.index,
    asJson() {
      // A field's columns stand together, in the order they are tried, which --mapping keeps when it reads them.
      const out: Record<string, string | null> = {};
      for (const [index, name] of header.entries()) {
        const column = columns.find((c) => c.sources.some((s) => s.index === index));
        if (!column) out[name] = null;
        else for (const source of column.sources) out[source.header] = column.field.label;
      }
      return out;
    },
  };
}

/** Several columns could be the email: the user picks one (asked on a terminal, else --map). */
export class AmbiguousEmailColumns extends UsageError {
  constructor(readonly candidates: string[]) {
    super(
      `${candidates.length} columns could be the email: ${candidates.map((c) => `"${c}"`).join(', ')}`,
      `Pick the prospect's email with --map "${candidates[0]}=Email" (the other email columns are then ignored).`,
    );
  }
}

/** The mapping as a --mapping file holds it. */
export function mappingJson(mapping: ColumnMapping): string {
  return `${JSON.stringify(mapping.asJson(), null, 2)}\n`;
}
