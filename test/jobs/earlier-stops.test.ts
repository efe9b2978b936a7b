// What the lists stopped in an earlier run of an import, as its chunks journal it and a resume after the lists changed
// reads it back: the record of a chunk's stretch, its checks, and the verdicts a row gets from it.
import { describe, expect, it } from 'vitest';
import { isChunkStops, takeStops, withEarlierStops } from '../../src/jobs/import/earlier-stops.js';
import { DncSet } from '../../src/io/import/dnc-set.js';
import type { DncLists } from '../../src/jobs/dnc-lists.js';

const lists = [
  { id: 'g1', name: 'Global' },
  { id: 'c2', name: 'Customers' },
];

describe('takeStops', () => {
  it("takes the rows up to a chunk's last row, each list once in the order first used, and leaves the rest", () => {
    const pending = [3, 1, 4, 0, 9, 1, 12, 0];
    expect(takeStops(pending, 9, lists)).toEqual({
      lists: [
        ['c2', 'Customers'],
        ['g1', 'Global'],
      ],
      rows: [
        [3, 0],
        [4, 1],
        [9, 0],
      ],
    });
    expect(pending).toEqual([12, 0]);
    expect(takeStops(pending, 11, lists)).toEqual({ lists: [], rows: [] });
    expect(pending).toEqual([12, 0]);
  });
});

describe('isChunkStops', () => {
  const range = { firstRow: 5, lastRow: 9, rows: 3, sha256: 'a'.repeat(64) };
  it('takes a record as outreach writes it', () => {
    expect(
      isChunkStops(
        {
          lists: [['g1', 'Global']],
          rows: [
            [2, 0],
            [9, 0],
          ],
        },
        range,
      ),
    ).toBe(true);
    expect(isChunkStops({ lists: [], rows: [] }, range)).toBe(true);
  });

  it.each([
    ['no rows', { lists: [] }],
    [
      'rows out of order',
      {
        lists: [['g1', 'G']],
        rows: [
          [4, 0],
          [3, 0],
        ],
      },
    ],
    [
      'a row twice',
      {
        lists: [['g1', 'G']],
        rows: [
          [4, 0],
          [4, 0],
        ],
      },
    ],
    ['a row past the chunk', { lists: [['g1', 'G']], rows: [[10, 0]] }],
    ['a row 0', { lists: [['g1', 'G']], rows: [[0, 0]] }],
    ['a list it does not name', { lists: [['g1', 'G']], rows: [[4, 1]] }],
    ['a list of one text', { lists: [['g1']], rows: [] }],
    ['a name that is no text', { lists: [['g1', 5]], rows: [] }],
    ['an id too long to be one', { lists: [['g'.repeat(201), 'G']], rows: [] }],
    ['a row that is no number', { lists: [['g1', 'G']], rows: [['4', 0]] }],
  ])('refuses %s', (_what, record) => {
    expect(isChunkStops(record, range)).toBe(false);
  });
});

describe('withEarlierStops', () => {
  const set = new DncSet();
  set.add('now@listed.example', 1);
  const dnc: DncLists = { set, lists, values: 1, fingerprint: 'f' };
  const resumed = withEarlierStops(dnc, {
    rows: [3, 8],
    lists: [
      ['gone9', 'A list deleted since'],
      ['g1', 'Global'],
    ],
    accepted: [
      [2, 5],
      [9, 12],
    ],
  });

  it('names a list that stopped rows then and is gone now by the name it had, after the lists of now', () => {
    expect(resumed.lists).toEqual([...lists, { id: 'gone9', name: 'A list deleted since' }]);
    expect([resumed.earlier!.listOf(3), resumed.earlier!.listOf(8), resumed.earlier!.listOf(4)]).toEqual([2, 0, -1]);
  });

  it('tells the rows of accepted chunks from the others', () => {
    const kept = [1, 2, 5, 6, 8, 9, 12, 13].filter((row) => resumed.earlier!.keeps(row));
    expect(kept).toEqual([2, 5, 9, 12]);
  });
});
