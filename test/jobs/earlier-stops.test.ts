// What the lists stopped in an earlier run of an import, as its chunks journal it and a resume after the lists changed
// reads it back: the record of a chunk's stretch, its checks, and the verdicts a row gets from it.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  earlierStops,
  emailHash,
  isChunkStops,
  takeStops,
  withEarlierStops,
} from '../../src/jobs/import/earlier-stops.js';
import { Journal } from '../../src/jobs/journal.js';
import { tempDir } from '../helpers/context.js';
import { checkRow } from '../../src/io/import/preflight.js';
import { EmailIndex } from '../../src/io/import/email-index.js';
import { DncSet } from '../../src/io/import/dnc-set.js';
import type { DncLists } from '../../src/jobs/dnc-lists.js';

const lists = [
  { id: 'g1', name: 'Global' },
  { id: 'c2', name: 'Customers' },
];

describe('takeStops', () => {
  it("takes the rows up to a chunk's last row, each list once in the order first used, and leaves the rest", () => {
    const pending = [3, 1, 111, 0, 4, 0, 222, 1, 9, 1, 333, 0, 12, 0, 444, 0];
    expect(takeStops(pending, 9, lists)).toEqual({
      through: 9,
      lists: [
        ['c2', 'Customers'],
        ['g1', 'Global'],
      ],
      stops: [3, 0, 111, 0, 4, 1, 222, 1, 9, 0, 333, 0],
    });
    expect(pending).toEqual([12, 0, 444, 0]);
    expect(takeStops(pending, 11, lists)).toEqual({ through: 11, lists: [], stops: [] });
    expect(pending).toEqual([12, 0, 444, 0]);
  });
});

describe('isChunkStops', () => {
  const range = { firstRow: 5, lastRow: 9, rows: 3, sha256: 'a'.repeat(64) };
  it('takes a record as outreach writes it', () => {
    expect(
      isChunkStops({ through: 9, lists: [['g1', 'Global']], stops: [2, 0, 7, 0, 9, 0, 2 ** 32 - 1, 1] }, range),
    ).toBe(true);
    // A stretch past the chunk's last row: rows at its end were left out.
    expect(isChunkStops({ through: 12, lists: [['g1', 'Global']], stops: [12, 0, 7, 1] }, range)).toBe(true);
    expect(isChunkStops({ through: 9, lists: [], stops: [] }, range)).toBe(true);
  });

  it.each([
    ['no stops', { through: 9, lists: [] }],
    ['a stop cut short', { through: 9, lists: [['g1', 'G']], stops: [4, 0, 1] }],
    ['a seen mark that is neither 0 nor 1', { through: 9, lists: [['g1', 'G']], stops: [4, 0, 1, 2] }],
    ['rows out of order', { through: 9, lists: [['g1', 'G']], stops: [4, 0, 1, 0, 3, 0, 1, 0] }],
    ['a row twice', { through: 9, lists: [['g1', 'G']], stops: [4, 0, 1, 0, 4, 0, 1, 0] }],
    ['a row past the chunk', { through: 9, lists: [['g1', 'G']], stops: [10, 0, 1, 0] }],
    ['a row 0', { through: 9, lists: [['g1', 'G']], stops: [0, 0, 1, 0] }],
    ['a list it does not name', { through: 9, lists: [['g1', 'G']], stops: [4, 1, 1, 0] }],
    ['a hash past 32 bits', { through: 9, lists: [['g1', 'G']], stops: [4, 0, 2 ** 32, 0] }],
    ['a list of one text', { through: 9, lists: [['g1']], stops: [] }],
    ['a name that is no text', { through: 9, lists: [['g1', 5]], stops: [] }],
    ['an id too long to be one', { through: 9, lists: [['g'.repeat(201), 'G']], stops: [] }],
    ['a stretch ending before the chunk', { through: 8, lists: [], stops: [] }],
    ['no stretch', { lists: [], stops: [] }],
    ['a row that is no number', { through: 9, lists: [['g1', 'G']], stops: ['4', 0, 1, 0] }],
  ])('refuses %s', (_what, record) => {
    expect(isChunkStops(record, range)).toBe(false);
  });
});

describe('withEarlierStops, and the verdicts checkRow gives by it', () => {
  const set = new DncSet();
  set.add('now@listed.example', 1);
  set.add('then@both.example', 1);
  const dnc: DncLists = { set, lists, values: 2, fingerprint: 'f' };
  const resumed = withEarlierStops(dnc, {
    // Chunk 0 (rows 2-5) and chunk 2 (rows 9-12) accepted; chunk 1 (rows 6-8) sent, never answered.
    chunks: new Map([
      [0, { through: 5, accepted: true }],
      [1, { through: 8, accepted: false }],
      [2, { through: 12, accepted: true }],
    ]),
    rows: Uint32Array.from([3, 8, 10]),
    hashes: Uint32Array.from(['then@gone.example', 'then@global.example', 'then@both.example'].map(emailHash)),
    listOf: Uint32Array.from([0, 1, 1]),
    seen: Uint8Array.from([0, 1, 0]),
    lists: [
      ['gone9', 'A list deleted since'],
      ['g1', 'Global'],
    ],
  });
  const check = (row: number, email: string) =>
    checkRow({ row, fields: [email] }, 0, new EmailIndex(10), 'record', resumed);

  it("counts a row's email as seen where an earlier run took it on, for the duplicates after it", () => {
    const emails = new EmailIndex(10);
    expect(checkRow({ row: 8, fields: ['then@global.example'] }, 0, emails, 'record', resumed)).toMatchObject({
      ok: false,
      seen: true,
    });
    expect(checkRow({ row: 11, fields: ['then@global.example'] }, 0, emails, 'record', resumed)).toMatchObject({
      ok: false,
      reason: 'duplicate email: first seen on row 8',
    });
    // Stopped then by a record that says the run did not take it on: its later copies are no duplicates of it.
    checkRow({ row: 3, fields: ['then@gone.example'] }, 0, emails, 'record', resumed);
    expect(checkRow({ row: 12, fields: ['then@gone.example'] }, 0, emails, 'record', resumed)).toEqual({
      ok: true,
      email: 'then@gone.example',
    });
  });

  it('names a list that stopped rows then and is gone now by the name it had, after the lists of now', () => {
    expect(resumed.lists).toEqual([...lists, { id: 'gone9', name: 'A list deleted since' }]);
    expect(check(3, 'then@gone.example')).toMatchObject({ ok: false, list: 2 });
  });

  it('keeps the verdicts of accepted chunks alone: a row listed now goes with its chunk, marked', () => {
    expect(check(4, 'now@listed.example')).toEqual({ ok: true, email: 'now@listed.example', listedNow: 1 });
    expect(check(10, 'then@both.example')).toMatchObject({ ok: false, list: 0 });
    expect(check(11, 'free@x.example')).toEqual({ ok: true, email: 'free@x.example' });
  });

  it('stops any other row a list held then or holds now, saying when the service may hold it', () => {
    expect(check(8, 'then@global.example')).toMatchObject({ ok: false, list: 0 });
    expect(check(7, 'now@listed.example')).toEqual({
      ok: false,
      email: 'now@listed.example',
      list: 1,
      reason:
        'on do-not-contact list "Customers" now; an earlier run sent it and its answer was lost: the service may hold it',
      seen: true,
    });
    expect(check(13, 'now@listed.example')).toMatchObject({
      ok: false,
      list: 1,
      reason: 'on do-not-contact list "Customers"',
    });
  });

  it('takes no verdict for another email than the one stopped (a row edited since)', () => {
    expect(check(3, 'edited@x.example')).toEqual({ ok: true, email: 'edited@x.example' });
    expect(check(8, 'edited@x.example')).toEqual({ ok: true, email: 'edited@x.example' });
  });

  it("gives each recorded chunk's last row, and none past them", () => {
    expect([0, 1, 2, 3].map((chunk) => resumed.earlier!.lastRowOf(chunk))).toEqual([5, 8, 12, undefined]);
  });
});

describe('earlierStops', () => {
  const range = (firstRow: number, lastRow: number) => ({ firstRow, lastRow, rows: 1, sha256: 'a'.repeat(64) });
  const journalOf = (write: (journal: Journal) => void) => {
    const path = join(tempDir('outreach-earlier-stops-'), 'x.import-journal');
    const journal = Journal.create(path, { job: 'import', input: { path: 'x.csv' }, settings: {} });
    write(journal);
    journal.close();
    return Journal.read(path, 'import')!;
  };

  it("reads every chunk's stretch and stops, each chunk's from its last record", () => {
    const journal = journalOf((j) => {
      j.sending(0, range(2, 3), { dnc: { through: 4, lists: [['g1', 'Global']], stops: [4, 0, 7, 0] } });
      j.accepted(0, range(2, 3));
      j.sending(1, range(5, 6), { dnc: { through: 6, lists: [], stops: [] } });
      // Chunk 0 sent again (a resume): its new record, which says row 4 was taken on before, replaces the first.
      j.sending(0, range(2, 3), { dnc: { through: 4, lists: [['c2', 'Customers']], stops: [4, 0, 7, 1] } });
    });
    const earlier = earlierStops(journal)!;
    expect(earlier.chunks).toEqual(
      new Map([
        [0, { through: 4, accepted: true }],
        [1, { through: 6, accepted: false }],
      ]),
    );
    expect([...earlier.rows, ...earlier.seen, ...earlier.listOf]).toEqual([4, 1, 0]);
    expect(earlier.lists).toEqual([['c2', 'Customers']]);
  });

  it('finds none in a journal whose chunks record none, and refuses stretches out of order', () => {
    expect(earlierStops(journalOf((j) => j.sending(0, range(2, 3))))).toBeUndefined();
    const crossed = journalOf((j) => {
      j.sending(0, range(2, 3), { dnc: { through: 9, lists: [], stops: [] } });
      j.sending(1, range(5, 6), { dnc: { through: 6, lists: [], stops: [] } });
    });
    expect(() => earlierStops(crossed)).toThrow(/record of unit 1 \(sending\) that outreach did not write/);
  });
});
