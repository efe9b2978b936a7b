// What the lists stopped in an earlier run of an import, as its chunks journal it and a resume after the lists changed
// reads it back: the record of a chunk's stretch, its checks, and the verdicts a row gets from it.
import { describe, expect, it } from 'vitest';
import { emailHash, isChunkStops, takeStops, withEarlierStops } from '../../src/jobs/import/earlier-stops.js';
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
    const pending = [3, 1, 111, 4, 0, 222, 9, 1, 333, 12, 0, 444];
    expect(takeStops(pending, 9, lists)).toEqual({
      lists: [
        ['c2', 'Customers'],
        ['g1', 'Global'],
      ],
      stops: [3, 0, 111, 4, 1, 222, 9, 0, 333],
    });
    expect(pending).toEqual([12, 0, 444]);
    expect(takeStops(pending, 11, lists)).toEqual({ lists: [], stops: [] });
    expect(pending).toEqual([12, 0, 444]);
  });
});

describe('isChunkStops', () => {
  const range = { firstRow: 5, lastRow: 9, rows: 3, sha256: 'a'.repeat(64) };
  it('takes a record as outreach writes it', () => {
    expect(isChunkStops({ lists: [['g1', 'Global']], stops: [2, 0, 7, 9, 0, 2 ** 32 - 1] }, range)).toBe(true);
    expect(isChunkStops({ lists: [], stops: [] }, range)).toBe(true);
  });

  it.each([
    ['no stops', { lists: [] }],
    ['a stop cut short', { lists: [['g1', 'G']], stops: [4, 0] }],
    ['rows out of order', { lists: [['g1', 'G']], stops: [4, 0, 1, 3, 0, 1] }],
    ['a row twice', { lists: [['g1', 'G']], stops: [4, 0, 1, 4, 0, 1] }],
    ['a row past the chunk', { lists: [['g1', 'G']], stops: [10, 0, 1] }],
    ['a row 0', { lists: [['g1', 'G']], stops: [0, 0, 1] }],
    ['a list it does not name', { lists: [['g1', 'G']], stops: [4, 1, 1] }],
    ['a hash past 32 bits', { lists: [['g1', 'G']], stops: [4, 0, 2 ** 32] }],
    ['a list of one text', { lists: [['g1']], stops: [] }],
    ['a name that is no text', { lists: [['g1', 5]], stops: [] }],
    ['an id too long to be one', { lists: [['g'.repeat(201), 'G']], stops: [] }],
    ['a row that is no number', { lists: [['g1', 'G']], stops: ['4', 0, 1] }],
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
      [0, { firstRow: 2, lastRow: 5, accepted: true }],
      [1, { firstRow: 6, lastRow: 8, accepted: false }],
      [2, { firstRow: 9, lastRow: 12, accepted: true }],
    ]),
    rows: Uint32Array.from([3, 8, 10]),
    hashes: Uint32Array.from(['then@gone.example', 'then@global.example', 'then@both.example'].map(emailHash)),
    listOf: Uint32Array.from([0, 1, 1]),
    lists: [
      ['gone9', 'A list deleted since'],
      ['g1', 'Global'],
    ],
  });
  const check = (row: number, email: string) =>
    checkRow({ row, fields: [email] }, 0, new EmailIndex(10), 'record', resumed);

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
