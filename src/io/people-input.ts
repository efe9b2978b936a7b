// The people to enrich, from what `people search` wrote (CSV with Person Id / LinkedIn URL columns, or NDJSON of
// person objects) or from flags. Every row is kept with its cells, so the results can carry the search columns and
// rows that cannot be sent are written back as they came, with the reason.
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { linkedinProfileProblem, normaliseLinkedinUrl } from './linkedin-url.js';
import { UsageError } from '../errors.js';
import { openCsv } from './csv-reader.js';
import { checkReadableFile } from './input-file.js';

type PersonLike = Record<string, unknown>;
type Cell = string | number | boolean | null | undefined;

/** "Ana María García" -> ["Ana", "María García"]: the first word is the first name. */
export function splitName(fullName: unknown): [string, string] {
  const words = String(fullName ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  return [words[0] ?? '', words.slice(1).join(' ')];
}

const located = (person: PersonLike) => (person.location ?? {}) as PersonLike;

/** The columns of `people search --csv`, and how each is read from a person of the search; NDJSON people and flag
 * values are laid out in them too. */
export const profileFields: Array<[header: string, value: (person: PersonLike) => Cell]> = [
  ['Person Id', (p) => (p.id ?? p.lead_id) as Cell],
  ['First Name', (p) => (p.first_name as Cell) ?? splitName(p.full_name)[0]],
  ['Last Name', (p) => (p.last_name as Cell) ?? splitName(p.full_name)[1]],
  ['Job Title', (p) => p.job_title as Cell],
  ['Company', (p) => p.company_name as Cell],
  ['Company Website', (p) => p.company_website as Cell],
  ['LinkedIn URL', (p) => p.linkedin_url as Cell],
  ['Department', (p) => p.department as Cell],
  ['City', (p) => located(p).city as Cell],
  ['State', (p) => located(p).state as Cell],
  ['Country', (p) => located(p).country as Cell],
  ['Decision Maker', (p) => p.decision_maker as Cell],
];

export const profileHeader = profileFields.map(([header]) => header);

/** Header names as they are matched: case, spaces, "_" and "-" ignored. */
export const normaliseHeader = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

export interface InputPerson {
  /** Row (CSV, after the header) or line (NDJSON) number; 0 for a flag value. */
  row: number;
  cells: string[];
  leadId?: number;
  linkedinUrl?: string;
  /** The person object of an NDJSON line, merged into --ndjson / --json results. */
  record?: Record<string, unknown>;
}

export interface PeopleInput {
  header: string[];
  people: InputPerson[];
  /** Rows that name nobody, or repeat someone: written back with their reason, never sent. */
  unusable: Array<{ person: InputPerson; reason: string }>;
}

const idNames = ['personid', 'leadid', 'id'];
const urlNames = ['linkedinurl', 'linkedin', 'profileurl', 'url'];

const text = (value: Cell) =>
  value === null || value === undefined ? '' : typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);

/** An NDJSON person (a search result) in the profile columns. */
function profileCells(person: PersonLike): string[] {
  return profileFields.map(([, value]) => text(value(person)));
}

/** A person id of `people search` (a whole number), or undefined; one too large to send exactly is no id. */
export function parseLeadId(text: string): number | undefined {
  const id = text.trim();
  return /^\d+$/.test(id) && Number.isSafeInteger(Number(id)) ? Number(id) : undefined;
}

const shownValue = (value: string) => JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Reads who a row names: its Person Id, else its LinkedIn URL, which must be a profile URL (a start spends credits).
 * `urlColumn` is the name the reasons give the URL's column. */
function identify(person: InputPerson, idText: string, urlText: string, urlColumn: string): string | undefined {
  const id = idText.trim();
  const url = urlText.trim();
  const leadId = parseLeadId(id);
  if (leadId !== undefined) person.leadId = leadId;
  const urlProblem = url ? linkedinProfileProblem(url) : undefined;
  if (url && !urlProblem) person.linkedinUrl = url;
  if (person.leadId !== undefined || person.linkedinUrl) return undefined;
  const badId = id ? `Person Id ${shownValue(id)} is not a person id (a whole number)` : '';
  if (urlProblem) {
    const badUrl = `${urlColumn} ${shownValue(url)} is not a LinkedIn profile URL (${urlProblem})`;
    return badId ? `${badId}, and ${badUrl}` : badUrl;
  }
  return badId ? `${badId} and there is no LinkedIn URL` : 'no Person Id or LinkedIn URL';
}

/** Collects people, dropping repeats (by lead id, else by LinkedIn URL) with the row they repeat. */
class Collector {
  readonly people: InputPerson[] = [];
  readonly unusable: PeopleInput['unusable'] = [];
  private readonly seen = new Map<string, number>();

  add(person: InputPerson, problem: string | undefined): void {
    if (problem) return void this.unusable.push({ person, reason: problem });
    const key =
      person.leadId !== undefined ? `id:${person.leadId}` : `url:${normaliseLinkedinUrl(person.linkedinUrl!)}`;
    const first = this.seen.get(key);
    if (first !== undefined) return void this.unusable.push({ person, reason: `repeats row ${first}` });
    this.seen.set(key, person.row);
    this.people.push(person);
  }
}

/** `--lead-id` and `--linkedin-url` values. */
export function peopleFromFlags(leadIds: number[], urls: string[]): PeopleInput {
  const collector = new Collector();
  const url = profileHeader.indexOf('LinkedIn URL');
  for (const id of leadIds) {
    const cells = profileHeader.map(() => '');
    cells[0] = String(id);
    collector.add({ row: 0, cells, leadId: id }, undefined);
  }
  for (const link of urls) {
    const cells = profileHeader.map(() => '');
    cells[url] = link;
    collector.add({ row: 0, cells, linkedinUrl: link }, undefined);
  }
  return { header: profileHeader, people: collector.people, unusable: collector.unusable };
}

async function peek(input: Readable): Promise<{ first: string; stream: AsyncIterable<Buffer> }> {
  const iterator = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const held: Buffer[] = [];
  let first = '';
  while (!first) {
    const next = await iterator.next();
    if (next.done) break;
    held.push(Buffer.from(next.value));
    first = Buffer.concat(held)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .charAt(0);
  }
  async function* all(): AsyncGenerator<Buffer> {
    yield* held;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield Buffer.from(next.value);
  }
  return { first, stream: all() };
}

async function* lines(stream: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of stream) {
    const parts = (rest + chunk.toString('utf8')).split('\n');
    rest = parts.pop()!;
    yield* parts;
  }
  if (rest) yield rest;
}

async function fromNdjson(stream: AsyncIterable<Buffer>, where: string): Promise<PeopleInput> {
  const collector = new Collector();
  let row = 0;
  for await (const line of lines(stream)) {
    row++;
    if (!line.trim()) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      throw new UsageError(
        `${where}, line ${row}: not a JSON object`,
        'Give one person per line, as `people search --ndjson` writes.',
      );
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record))
      throw new UsageError(`${where}, line ${row}: not a JSON object`);
    const person: InputPerson = {
      row,
      cells: profileCells(record as Record<string, unknown>),
      record: record as Record<string, unknown>,
    };
    const r = record as Record<string, unknown>;
    collector.add(
      person,
      identify(person, text((r.id ?? r.lead_id) as Cell), text(r.linkedin_url as Cell), 'linkedin_url'),
    );
  }
  return { header: profileHeader, people: collector.people, unusable: collector.unusable };
}

async function fromCsv(stream: AsyncIterable<Buffer>, where: string): Promise<PeopleInput> {
  const source = await openCsv(stream as unknown as Readable, { name: where });
  const names = source.header.map(normaliseHeader);
  const find = (wanted: string[]) => wanted.map((w) => names.indexOf(w)).find((i) => i >= 0) ?? -1;
  const idColumn = find(idNames);
  const urlColumn = find(urlNames);
  if (idColumn < 0 && urlColumn < 0) {
    source.close();
    throw new UsageError(
      `${where}: no Person Id or LinkedIn URL column (the columns are: ${source.header.join(', ')})`,
      'Give the CSV that `outreach people search --csv` writes, or --lead-id / --linkedin-url.',
    );
  }
  const urlName = urlColumn >= 0 ? source.header[urlColumn]! : 'LinkedIn URL';
  const collector = new Collector();
  for await (const record of source.rows) {
    if (!record.fields)
      throw new UsageError(`${where}, row ${record.row}: ${'reason' in record ? record.reason : 'unreadable'}`);
    const cells = source.header.map((_, i) => record.fields![i] ?? '');
    const person: InputPerson = { row: record.row, cells };
    collector.add(person, identify(person, cells[idColumn] ?? '', cells[urlColumn] ?? '', urlName));
  }
  return { header: source.header, people: collector.people, unusable: collector.unusable };
}

/** `--file FILE` or `--file -`: NDJSON when the first character is `{`, CSV otherwise. */
export async function readPeople(path: string, stdin: Readable): Promise<PeopleInput> {
  const where = path === '-' ? 'stdin' : path;
  if (path !== '-') checkReadableFile(path);
  const input = path === '-' ? stdin : createReadStream(path);
  const { first, stream } = await peek(input);
  if (!first) return { header: profileHeader, people: [], unusable: [] };
  return first === '{' ? fromNdjson(stream, where) : fromCsv(stream, where);
}
