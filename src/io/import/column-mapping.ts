// Which CSV columns feed which field: by header matched against field labels (ignoring case, spaces, _ and -), by a
// known export's header, or as the user said with --map / --mapping. Unknown columns stop the import unless
// --ignore-unknown. Several export columns for one field (Apollo's phones), or several the user mapped to one field,
// feed it together: each row takes the first of them that is not empty.
import { UsageError } from '../../errors.js';
import { parseJson } from '../structured-file.js';
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
  const parsed = parseJson(text, `--mapping: ${path}`);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`--mapping: ${path} must hold an object {"CSV column": "Field label" or null}`);
  for (const [column, label] of Object.entries(parsed)) {
    if (label !== null && typeof label !== 'string')
      throw new UsageError(`--mapping: ${path}: "${column}" must map to a field label or null`);
  }
  return parsed as Record<string, string | null>;
}

type How = 'explicit' | 'own' | 'synonym';
/** What the user said of columns: normalised name -> {as written, field label or null for "ignore"}. */
type Explicit = Map<string, { column: string; label: string | null }>;

/** What deciding one column's field needs to know about the whole file. */
interface Decision {
  fields: FieldInfo[];
  fieldByName: Map<string, FieldInfo>;
  explicit: Explicit;
  /** The fields the user mapped a column to. */
  explicitFields: Set<string | undefined>;
  /** The file's normalised column names. */
  known: Set<string>;
  emailChosen: boolean;
}

/** Each column's name, a repeated one numbered from its second use ("Email", "Email#2"): --map tells them apart. */
function distinctNames(header: string[]): string[] {
  const uses = new Map<string, number>();
  return header.map((name) => {
    const key = normaliseName(name);
    const use = (uses.get(key) ?? 0) + 1;
    uses.set(key, use);
    return use === 1 || name === '' ? name : `${name}#${use}`;
  });
}

/** A column's name without the number a repeat of it was given (distinctNames): what fields are matched by. */
const firstUse = (key: string) => key.replace(/#\d+$/, '');

export function buildMapping(fileHeader: string[], fields: FieldInfo[], options: MappingOptions): ColumnMapping {
  const header = distinctNames(fileHeader);
  const explicit = explicitMappings(options);
  const known = new Set(header.map(normaliseName));
  const exportOf = recogniseExport([...known]);
  checkNamedColumns(explicit, known, header);
  const fieldByName = new Map(fields.map((f) => [normaliseName(f.label), f]));
  const decision: Decision = {
    fields,
    fieldByName,
    explicit,
    explicitFields: new Set(
      [...explicit.values()].flatMap(({ label }) =>
        label === null ? [] : [fieldByName.get(normaliseName(label))?.id],
      ),
    ),
    known,
    emailChosen: emailColumnChosen(header, explicit),
  };
  const columns: MappedColumn[] = [];
  const ignored: string[] = [];
  const unknown: string[] = [];
  /** How each field's column was found: a second column of the same kind joins it (never beside its own name). */
  const byField = new Map<string, { column: MappedColumn; how: How }>();
  header.forEach((name, index) => {
    const found = fieldOf(name, decision);
    if (found === 'ignored') return void ignored.push(name);
    if (!found) return void (options.ignoreUnknown || name === '' || exportOf ? ignored : unknown).push(name);
    const { field, how } = found;
    const earlier = byField.get(field.id);
    // The email is one column: it is what the checks and the duplicate index read. Later email columns of an export
    // (E-mail 2, Secondary Email) are set aside.
    const isEmail = normaliseName(field.label) === 'email';
    if (earlier && earlier.how === 'synonym' && how === 'synonym' && isEmail) return void ignored.push(name);
    if (earlier && earlier.how === how && how !== 'own' && !isEmail)
      return void earlier.column.sources.push({ index, header: name });
    if (earlier)
      throw new UsageError(
        `columns "${earlier.column.sources[0]!.header}" and "${name}" both map to the field "${field.label}"`,
        'Map one of them elsewhere, or ignore it with --map "COLUMN=".',
      );
    const column = { field, sources: [{ index, header: name }] };
    byField.set(field.id, { column, how });
    columns.push(column);
  });
  orderSources(byField.values(), explicit);
  if (unknown.length) throw unknownColumns(unknown, fields);
  const email = columns.find((c) => normaliseName(c.field.label) === 'email');
  if (!email)
    throw new UsageError(
      'no column maps to the Email field, and every prospect needs one',
      `Name the column "Email" or add --map "YOUR COLUMN=Email". The columns are: ${header.join(', ')}`,
    );
  const bySynonym = [...byField.values()].filter(({ how }) => how === 'synonym').map(({ column }) => column);
  return {
    columns,
    ignored,
    bySynonym,
    exportOf,
    emailIndex: email.sources[0]!.index,
    asJson: () => asJson(header, columns),
  };
}

/** --mapping's pairs, then --map's, which win. */
function explicitMappings(options: MappingOptions): Explicit {
  const explicit: Explicit = new Map();
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
  return explicit;
}

function checkNamedColumns(explicit: Explicit, known: Set<string>, header: string[]): void {
  for (const [key, { column }] of explicit) {
    if (!known.has(key))
      throw new UsageError(
        `--map/--mapping names column "${column}", which the file does not have`,
        `The columns are: ${header.join(', ')}`,
      );
  }
}

/** Whether the user named the email column. Two columns that could each be the email (Email and Personal Email), and
 * no word from the user on either: which one is the prospect's is not ours to guess. */
function emailColumnChosen(header: string[], explicit: Explicit): boolean {
  const emailCandidates = header.filter((name) => couldBeEmail(firstUse(normaliseName(name))));
  const emailChosen = [...explicit.values()].some(({ label }) => label !== null && normaliseName(label) === 'email');
  if (emailCandidates.length > 1 && !emailChosen && !emailCandidates.some((c) => explicit.has(normaliseName(c))))
    throw new AmbiguousEmailColumns(emailCandidates);
  return emailChosen;
}

/** The field a column feeds and how it was found; 'ignored' when it is set aside, undefined when nothing matches. */
function fieldOf(name: string, d: Decision): { field: FieldInfo; how: How } | 'ignored' | undefined {
  const key = normaliseName(name);
  const mapped = d.explicit.get(key);
  if (mapped) {
    if (mapped.label === null) return 'ignored';
    const field = d.fieldByName.get(normaliseName(mapped.label));
    if (field) return { field, how: 'explicit' };
    const hint = closest(
      mapped.label,
      d.fields.map((f) => f.label),
      normaliseName,
    );
    throw new UsageError(
      `--map: "${name}" points to "${mapped.label}", which is not a field${hint.length ? ` (closest: ${hint.join(', ')})` : ''}`,
      'See `outreach fields list --system`.',
    );
  }
  // The user named the email column: the other email columns are set aside, not stopped on.
  const base = firstUse(key);
  if (d.emailChosen && couldBeEmail(base)) return 'ignored';
  const own = d.fieldByName.get(base);
  if (own) return { field: own, how: 'own' };
  const synonym = normaliseName(synonymField(base) ?? '');
  const field = d.fieldByName.get(synonym);
  if (!field) return undefined;
  // A synonym stands back when another column carries the field's own name ("Mobile Phone" beside "Phone Number",
  // Outlook's salutation "Title" beside "Job Title"): that column is set aside, not stopped on. So does it when the
  // user mapped a column to that field (--map "Mobile Phone=Phone Number").
  if (d.known.has(synonym) || d.explicitFields.has(field.id)) return 'ignored';
  return { field, how: 'synonym' };
}

/** The order a field's sources are tried in: an export's columns best first (header-synonyms.ts), the user's as given. */
function orderSources(found: Iterable<{ column: MappedColumn; how: How }>, explicit: Explicit): void {
  const explicitOrder = [...explicit.keys()];
  const rank = (how: How, header: string) =>
    how === 'synonym' ? synonymRank(header) : explicitOrder.indexOf(normaliseName(header));
  for (const { column, how } of found) column.sources.sort((a, b) => rank(how, a.header) - rank(how, b.header));
}

function unknownColumns(unknown: string[], fields: FieldInfo[]): UsageError {
  const lines = unknown.map((name) => {
    const hint = closest(
      name,
      fields.map((f) => f.label),
      normaliseName,
    );
    return `  "${name}"${hint.length ? ` — closest fields: ${hint.join(', ')}` : ' — no similar field'}`;
  });
  return new UsageError(
    `${unknown.length === 1 ? 'a column matches' : `${unknown.length} columns match`} no field:\n${lines.join('\n')}`,
    'Map them with --map "COLUMN=Field label", skip them with --ignore-unknown, or create the fields in the app first.',
  );
}

/** A field's columns stand together, in the order they are tried, which --mapping keeps when it reads them. */
function asJson(header: string[], columns: MappedColumn[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [index, name] of header.entries()) {
    const column = columns.find((c) => c.sources.some((s) => s.index === index));
    if (!column) out[name] = null;
    else for (const source of column.sources) out[source.header] = column.field.label;
  }
  return out;
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
