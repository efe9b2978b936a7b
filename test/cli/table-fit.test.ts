// Fitting tables to a terminal: widths by what a terminal shows (wide characters, emoji), key columns whole.
import { describe, expect, it } from 'vitest';
import { fitWidths, truncate, wrap } from '../../src/cli/render/fit.js';

describe('truncate', () => {
  it('cuts by display width: a CJK character takes two columns and is never split', () => {
    expect(truncate('日本語の名前', 7)).toBe('日本語…');
    expect(truncate('日本語の名前', 6)).toBe('日本…');
    expect(truncate('日本語の名前', 12)).toBe('日本語の名前');
  });

  it('keeps emoji with skin tones and joined families whole', () => {
    expect(truncate('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
    expect(truncate('👨‍👩‍👧 family', 4)).toBe('👨‍👩‍👧…');
    expect(truncate('Café crème', 6)).toBe('Café…');
  });
});

describe('fitWidths', () => {
  it('leaves a table that fits as it is', () => {
    expect(fitWidths([4, 10, 10], [2, 4, 4], [true, false, false], 28)).toEqual([4, 10, 10]);
  });

  it('cuts the widest columns first, keeps narrow ones and key columns whole', () => {
    // 80 columns: ID and NAME are keys; TYPE fits a fair share; TITLE and NOTES share the rest.
    expect(fitWidths([8, 20, 6, 40, 60], [2, 4, 4, 5, 5], [true, true, false, false, false], 80)).toEqual([
      8, 20, 6, 19, 19,
    ]);
  });

  it('never goes below a column’s minimum: the terminal wraps instead of a column vanishing', () => {
    expect(fitWidths([8, 30, 30], [2, 10, 10], [true, false, false], 20)).toEqual([8, 10, 10]);
  });
});

describe('wrap', () => {
  it('breaks at spaces, indenting the lines that continue', () => {
    expect(wrap('Mon 09:00-12:00, 13:00-17:00', 16)).toEqual(['Mon 09:00-12:00,', '  13:00-17:00']);
    expect(wrap('alice@try-outreach.com', 12)).toEqual(['alice@try-o…']);
  });
});

describe('columns that go on a narrow terminal', () => {
  it('leave by their rank, lowest first, before a column is cut below its useful width', async () => {
    const { renderTable } = await import('../../src/cli/render/table.js');
    const headers = ['ID', 'TITLE', 'OWNER', 'PRIORITY'];
    const rows = [['tk1', 'Call Ada Lovelace about the renewal', 'Alice Admin', 'high']];
    const layout = (width: number) => ({
      keys: [true, false, false, false],
      wraps: [false, false, false, false],
      drops: [undefined, undefined, 2, 1],
      useful: [0, 24, 0, 0],
      width,
      color: false,
    });
    const firstLine = async (width: number) => (await renderTable(headers, rows, layout(width))).split('\n')[1];
    expect(await firstLine(80)).toBe('tk1  Call Ada Lovelace about the renewal  Alice Admin  high');
    // The title stays at its useful 24 columns while others are cut, then priority goes, then the owner.
    expect(await firstLine(50)).toBe('tk1  Call Ada Lovelace about…  Alice Ad…  high');
    expect(await firstLine(40)).toBe('tk1  Call Ada Lovelace about…  Alice Ad…');
    expect(await firstLine(30)).toBe('tk1  Call Ada Lovelace about…');
  });
});

describe('a table of many rows', () => {
  it('draws 45,000 rows with a wrapped column (a spread of its words overflowed the stack) block by block, never narrower than before', async () => {
    const { renderTable } = await import('../../src/cli/render/table.js');
    const rows = Array.from({ length: 45_000 }, (_, i) => [`p${i}@x.example`, 'sends outside 07:00-20:00']);
    const layout = { keys: [true, false], wraps: [false, true], width: 60, color: false };
    const lines = (await renderTable(['EMAIL', 'WARNINGS'], rows, layout)).split('\n');
    // The first block of 1,000 rows at its own widths; the next one's longer ids widen the column from there on.
    expect(lines.slice(0, 2)).toEqual([
      'EMAIL' + ' '.repeat(11) + 'WARNINGS',
      'p0@x.example' + ' '.repeat(4) + 'sends outside 07:00-20:00',
    ]);
    expect(lines.slice(1000, 1002)).toEqual([
      'p999@x.example  sends outside 07:00-20:00',
      'p1000@x.example  sends outside 07:00-20:00',
    ]);
    expect(lines[1002]).toBe('p1001@x.example  sends outside 07:00-20:00');
    expect(lines[45_000]).toBe('p44999@x.example  sends outside 07:00-20:00');
    expect(lines).toHaveLength(45_002);
  }, 120_000);
});

describe('a table drawn as its rows come', () => {
  it('keeps a later block in line with the first: its columns never narrower, the header once', async () => {
    const { TableDrawer } = await import('../../src/cli/render/table.js');
    const layout = { keys: [true, false], wraps: [false, false], width: 80, color: false };
    const drawer = new TableDrawer(['ID', 'STATUS'], layout);
    expect(await drawer.draw([['a-long-id-1', 'ok']])).toBe('ID           STATUS\na-long-id-1  ok\n');
    expect(await drawer.draw([['b2', 'failed']])).toBe('b2           failed\n');
  });
});

describe('one CSV header style', () => {
  it('gives a table header in capitals a camelCase name, and keeps a field label as it is', async () => {
    const { csvHeader } = await import('../../src/cli/render/columns.js');
    expect(['ID', 'CALL OUTCOME', 'ALREADY REVEALED', 'ADDED BY'].map(csvHeader)).toEqual([
      'id',
      'callOutcome',
      'alreadyRevealed',
      'addedBy',
    ]);
    expect(['First Name', 'Email', 'LinkedIn URL', 'taskId'].map(csvHeader)).toEqual([
      'First Name',
      'Email',
      'LinkedIn URL',
      'taskId',
    ]);
  });
});
