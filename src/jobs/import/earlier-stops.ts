// What the do-not-contact lists stopped in an earlier run of an import, for a resume after they changed. Each chunk's
// sending record holds the rows the lists stopped in its stretch of the file: their row, the list (id and name), a
// hash of the email (a verdict is never taken for another row's), and whether a run took the row on before (its email
// then counts as seen for the duplicates after it). A resume forms the chunks the journal records over the same
// stretches (the service's accepted ones come out as they were, and are not sent again) and tells their rows as that
// run did; every other row is left out if a list stopped it then or holds it now.
import { isUnitRange, type Journal, type UnitRange } from '../journal.js';
import type { Suppression } from '../../io/import/preflight.js';
import { hashed, hashText } from '../../io/text-hash.js';
import type { DncLists } from '../dnc-lists.js';

/** The rows a chunk's stretch of the file lost to the lists, as its sending record holds them: where the stretch ends
 * (past the chunk's last row when rows at its end were left out); each list once, as [id, name]; each row as four
 * numbers (its row, its list's index in `lists`, the hash of its email, and 1 when an earlier run took the row on,
 * so its email counts as seen for the duplicates after it, else 0). */
export interface ChunkStops {
  through: number;
  lists: Array<[string, string]>;
  stops: number[];
}

/** Numbers a stop takes in a record. */
export const stopSize = 4;

/** The most characters of a list's id and name kept in a record (the service's are far shorter). */
const maxIdChars = 200;
const maxNameChars = 1000;

/** An email's hash as a stop records it. */
export function emailHash(key: string): number {
  hashText(key);
  return hashed[0]!;
}

/** Stops read back from a journal: lists of two texts, rows in order within the chunk's stretch, each naming a list. */
export function isChunkStops(value: unknown, range: UnitRange): value is ChunkStops {
  const record = value as Partial<ChunkStops> | null;
  if (typeof record !== 'object' || record === null || !Array.isArray(record.lists) || !Array.isArray(record.stops))
    return false;
  const text = (t: unknown, max: number) => typeof t === 'string' && t.length <= max;
  const { through, lists, stops } = record;
  if (!Number.isSafeInteger(through) || through! < range.lastRow || through! > 0xffff_ffff) return false;
  if (!lists.every((l) => Array.isArray(l) && l.length === 2 && text(l[0], maxIdChars) && text(l[1], maxNameChars)))
    return false;
  if (stops.length % stopSize !== 0) return false;
  const whole = (n: unknown, max: number): n is number =>
    Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max;
  let previous = 0;
  for (let i = 0; i < stops.length; i += stopSize) {
    const [row, list, hash, seen] = [stops[i], stops[i + 1], stops[i + 2], stops[i + 3]];
    if (seen !== 0 && seen !== 1) return false;
    if (!whole(row, through!) || row <= previous) return false;
    if (!whole(list, lists.length - 1) || !whole(hash, 0xffff_ffff)) return false;
    previous = row;
  }
  return true;
}

/** The stops of the rows up to `through`, as a chunk's sending record holds them, taken out of `pending`: the rows
 * stopped since the last chunk, four numbers each (row, the list's number in `lists`, the email's hash, seen). */
export function takeStops(
  pending: number[],
  through: number,
  lists: ReadonlyArray<{ id: string; name: string }>,
): ChunkStops {
  let count = 0;
  while (count < pending.length && pending[count]! <= through) count += stopSize;
  const taken = pending.splice(0, count);
  const used = new Map<number, number>();
  for (let i = 1; i < taken.length; i += stopSize) {
    const list = taken[i]!;
    if (!used.has(list)) used.set(list, used.size);
    taken[i] = used.get(list)!;
  }
  return { through, lists: [...used.keys()].map((list) => [lists[list]!.id, lists[list]!.name]), stops: taken };
}

/** What the journal's chunks record: each chunk's stretch of the file (by its number: where it ends, and whether the
 * service accepted it; it starts after the chunk before it), and every stop, by row. */
export interface EarlierStops {
  chunks: Map<number, { through: number; accepted: boolean }>;
  rows: Uint32Array;
  hashes: Uint32Array;
  /** Each stop's list, an index into `lists`. */
  listOf: Uint32Array;
  /** Each stop's row was taken on by an earlier run (1), or not (0). */
  seen: Uint8Array;
  lists: Array<[string, string]>;
}

/** Every stop the journal's chunks record, or undefined when a chunk records none (a journal of an older outreach).
 * Throws where a record is not one outreach wrote. */
export function earlierStops(journal: Journal): EarlierStops | undefined {
  const chunks: EarlierStops['chunks'] = new Map();
  // Every stop in the order of the chunks, as four columns; the lists by id and name (a list renamed between runs is
  // one more entry: each row keeps the name it was stopped under).
  const rows: number[] = [];
  const hashes: number[] = [];
  const listOf: number[] = [];
  const seen: number[] = [];
  const listIndex = new Map<string, number>();
  const lists: Array<[string, string]> = [];
  let through = 0;
  for (const [index, unit] of [...journal.units].sort((a, b) => a[0] - b[0])) {
    if (!unit.sending) {
      if (unit.accepted) return undefined; // accepted without a sending record: an older journal
      continue;
    }
    if (!isUnitRange(unit.sending)) throw journal.notWritten('sending', index);
    const record = (unit.sending as { dnc?: unknown }).dnc;
    if (record === undefined) return undefined;
    if (!isChunkStops(record, unit.sending)) throw journal.notWritten('sending', index);
    // Stretches follow one another in the order of the chunks.
    if (record.through <= through) throw journal.notWritten('sending', index);
    through = record.through;
    chunks.set(index, { through, accepted: unit.accepted !== undefined });
    const own = record.lists.map(([id, name]) => {
      const key = `${id}\n${name}`;
      if (!listIndex.has(key)) listIndex.set(key, lists.push([id, name]) - 1);
      return listIndex.get(key)!;
    });
    for (let i = 0; i < record.stops.length; i += stopSize) {
      rows.push(record.stops[i]!);
      listOf.push(own[record.stops[i + 1]!]!);
      hashes.push(record.stops[i + 2]!);
      seen.push(record.stops[i + 3]!);
    }
  }
  // By row; a row two records hold (the stops of a chunk passed over go with the next one's) takes the later one's
  // verdict.
  const order = rows.map((_, i) => i).sort((a, b) => rows[a]! - rows[b]! || a - b);
  const kept = order.filter((i, at) => rows[order[at + 1]!] !== rows[i]);
  return {
    chunks,
    rows: Uint32Array.from(kept, (i) => rows[i]!),
    hashes: Uint32Array.from(kept, (i) => hashes[i]!),
    listOf: Uint32Array.from(kept, (i) => listOf[i]!),
    seen: Uint8Array.from(kept, (i) => seen[i]!),
    lists,
  };
}

/** The first index of the ascending `sorted` whose value is `value` or more; its length when there is none. */
function firstAtLeast(sorted: ArrayLike<number>, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The lists as this run read them, with the verdicts of the earlier run (Suppression's `earlier`). A list that
 * stopped rows then and is gone now is one more list of the summary, by the name it had. */
export function withEarlierStops(dnc: DncLists, earlier: EarlierStops): DncLists & Suppression {
  const lists = [...dnc.lists];
  const numberOf = new Map(lists.map((list, number) => [list.id, number]));
  const numbers = earlier.lists.map(([id, name]) => {
    let number = numberOf.get(id);
    if (number === undefined) numberOf.set(id, (number = lists.push({ id, name }) - 1));
    return number;
  });
  // The stretches in order (each ends past the one before it): a row's is the first that ends at it or after.
  const stretches = [...earlier.chunks].sort((a, b) => a[0] - b[0]).map(([, chunk]) => chunk);
  const throughs = stretches.map((chunk) => chunk.through);
  const chunkOf = (row: number) => stretches[firstAtLeast(throughs, row)];
  return {
    ...dnc,
    lists,
    earlier: {
      stopOf(row, key) {
        const at = firstAtLeast(earlier.rows, row);
        if (earlier.rows[at] !== row || earlier.hashes[at] !== emailHash(key)) return undefined;
        return { list: numbers[earlier.listOf[at]!]!, seen: earlier.seen[at] === 1 };
      },
      keeps: (row) => chunkOf(row)?.accepted === true,
      sentMaybe: (row) => chunkOf(row)?.accepted === false,
      lastRowOf: (chunk) => earlier.chunks.get(chunk)?.through,
    },
  };
}
