// What the do-not-contact lists stopped in an earlier run of an import, for a resume after they changed. Each chunk's
// sending record holds the rows the lists stopped since the chunk before it: their row, and the list's id and name.
// A resume forms the chunks the service accepted from those verdicts (so it knows them again, and sends none of their
// rows twice), and stops every other row that a list stopped then or stops now.
import type { Journal, UnitRange } from '../journal.js';
import type { Suppression } from '../../io/import/preflight.js';
import type { DncLists } from '../dnc-lists.js';

/** The rows a chunk's stretch of the file lost to the lists, as its sending record holds them: each list once, as
 * [id, name]; each row as [row, the list's index in `lists`], in the order of the file. */
export interface ChunkStops {
  lists: Array<[string, string]>;
  rows: Array<[number, number]>;
}

/** The most characters of a list's id and name kept in a record (the service's are far shorter). */
const maxIdChars = 200;
const maxNameChars = 1000;

/** Stops read back from a journal: lists of two texts, rows in order up to the chunk's last row, each naming a list. */
export function isChunkStops(value: unknown, range: UnitRange): value is ChunkStops {
  const stops = value as Partial<ChunkStops> | null;
  if (typeof stops !== 'object' || stops === null || !Array.isArray(stops.lists) || !Array.isArray(stops.rows))
    return false;
  const text = (t: unknown, max: number) => typeof t === 'string' && t.length <= max;
  const { lists, rows } = stops;
  if (!lists.every((l) => Array.isArray(l) && l.length === 2 && text(l[0], maxIdChars) && text(l[1], maxNameChars)))
    return false;
  let previous = 0;
  for (const entry of rows) {
    if (!Array.isArray(entry) || entry.length !== 2) return false;
    const [row, list] = entry as unknown[];
    if (!Number.isSafeInteger(row) || (row as number) <= previous || (row as number) > range.lastRow) return false;
    if (!Number.isSafeInteger(list) || (list as number) < 0 || (list as number) >= lists.length) return false;
    previous = row as number;
  }
  return true;
}

/** The stops of the rows up to `lastRow`, as a chunk's sending record holds them, taken out of `pending`: the rows
 * stopped since the last chunk, each as two numbers (its row, its list's number in `lists`). */
export function takeStops(
  pending: number[],
  lastRow: number,
  lists: ReadonlyArray<{ id: string; name: string }>,
): ChunkStops {
  let count = 0;
  while (count < pending.length && pending[count]! <= lastRow) count += 2;
  const taken = pending.splice(0, count);
  const used = new Map<number, number>();
  const rows: Array<[number, number]> = [];
  for (let i = 0; i < taken.length; i += 2) {
    const list = taken[i + 1]!;
    if (!used.has(list)) used.set(list, used.size);
    rows.push([taken[i]!, used.get(list)!]);
  }
  return { lists: [...used.keys()].map((list) => [lists[list]!.id, lists[list]!.name]), rows };
}

/** Every stop the journal's chunks record, or undefined when a chunk it holds records none (a journal of an older
 * outreach, or of a run without the check). Throws where a record is not one outreach wrote. */
export interface EarlierStops {
  /** The rows stopped, in order, and the [id, name] of the list that stopped each. */
  rows: number[];
  lists: Array<[string, string]>;
  /** The stretches of the file ([first, last] row) of the chunks the service accepted. */
  accepted: Array<[number, number]>;
}

export function earlierStops(journal: Journal): EarlierStops | undefined {
  const byRow = new Map<number, [string, string]>();
  const accepted: Array<[number, number]> = [];
  for (const [index, unit] of journal.units) {
    if (!unit.sending) {
      if (unit.accepted) return undefined; // accepted without a sending record: an older journal
      continue;
    }
    const stops = (unit.sending as { dnc?: unknown }).dnc;
    if (stops === undefined) return undefined;
    if (!isChunkStops(stops, unit.sending)) throw journal.notWritten('sending', index);
    for (const [row, list] of stops.rows) byRow.set(row, stops.lists[list]!);
    if (unit.accepted) accepted.push([unit.sending.firstRow, unit.sending.lastRow]);
  }
  const rows = [...byRow.keys()].sort((a, b) => a - b);
  return { rows, lists: rows.map((row) => byRow.get(row)!), accepted: accepted.sort((a, b) => a[0] - b[0]) };
}

/** The lists as this run read them, with the verdicts of the earlier run: a row of a chunk the service accepted is
 * stopped only if it was then; any other row if it was then or is now. A list that stopped rows then and is gone now
 * is one more list of the summary, by the name it had. */
export function withEarlierStops(dnc: DncLists, earlier: EarlierStops): DncLists & Suppression {
  const lists = [...dnc.lists];
  const numberOf = new Map(lists.map((list, number) => [list.id, number]));
  const stoppedBy = earlier.lists.map(([id, name]) => {
    let number = numberOf.get(id);
    if (number === undefined) numberOf.set(id, (number = lists.push({ id, name }) - 1));
    return number;
  });
  const rows = Uint32Array.from(earlier.rows);
  /** The index of `row` in the sorted `sorted`, or -1. */
  const find = (sorted: ArrayLike<number>, row: number) => {
    let low = 0;
    let high = sorted.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (sorted[mid] === row) return mid;
      if (sorted[mid]! < row) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  };
  const firsts = earlier.accepted.map(([first]) => first);
  const inAccepted = (row: number) => {
    let low = 0;
    let high = firsts.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (firsts[mid]! <= row) low = mid + 1;
      else high = mid - 1;
    }
    return high >= 0 && row <= earlier.accepted[high]![1];
  };
  return {
    ...dnc,
    lists,
    earlier: {
      listOf(row: number) {
        const at = find(rows, row);
        return at < 0 ? -1 : stoppedBy[at]!;
      },
      keeps: inAccepted,
    },
  };
}
