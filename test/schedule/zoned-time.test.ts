// Wall times in a zone on the nights its clocks change, and what a prospect is warned of across two zones' changes.
import { describe, expect, it } from 'vitest';
import { zonedInstant } from '../../src/schedule/preview.js';
import { prospectWindows } from '../../src/schedule/prospect-windows.js';
import { parseWindows, type Window } from '../../src/schedule/week.js';

const iso = (instant: number) => new Date(instant).toISOString().slice(0, 16);

describe('zonedInstant', () => {
  it.each([
    // Skipped hours, east and west of UTC and at midnight: moved forward by the skip.
    ['Europe/London', [2026, 3, 29, 1, 0], '2026-03-29T01:00'], // 02:00 BST
    ['Europe/London', [2026, 3, 29, 1, 30], '2026-03-29T01:30'], // 02:30 BST
    ['Asia/Beirut', [2026, 3, 29, 0, 0], '2026-03-28T22:00'], // 01:00 EEST, on Sunday still
    ['Australia/Lord_Howe', [2026, 10, 4, 2, 0], '2026-10-03T15:30'], // 02:30 +11
    ['America/New_York', [2026, 3, 8, 2, 30], '2026-03-08T07:30'], // 03:30 EDT
    ['America/Santiago', [2026, 9, 6, 0, 0], '2026-09-06T04:00'], // 01:00 -03
    // Repeated hours: the first of the two.
    ['Europe/London', [2026, 10, 25, 1, 30], '2026-10-25T00:30'], // 01:30 BST
    ['America/New_York', [2026, 11, 1, 1, 30], '2026-11-01T05:30'], // 01:30 EDT
    // Ordinary times, whole and part hours.
    ['Asia/Kathmandu', [2026, 11, 18, 9, 0], '2026-11-18T03:15'],
    ['Asia/Kolkata', [2026, 11, 18, 9, 0], '2026-11-18T03:30'],
    ['Europe/London', [2026, 3, 29, 0, 30], '2026-03-29T00:30'],
  ] as const)('%s %j is %s UTC', (zone, [y, m, d, h, min], expected) =>
    expect(iso(zonedInstant(y, m, d, h, min, zone))).toBe(expected),
  );
});

function week(days: Record<number, string>): Window[][] {
  return Array.from({ length: 7 }, (_, day) => parseWindows(days[day] ?? 'off', `day ${day}`));
}
const weekdays = (text: string) => week({ 1: text, 2: text, 3: text, 4: text, 5: text });

describe('prospectWindows', () => {
  it('two changes the same way are said as two, not as a change and its change back (London then Sydney)', () => {
    const { warnings } = prospectWindows(
      weekdays('20:00-22:00'),
      'Europe/London',
      'Australia/Sydney',
      Date.UTC(2026, 2, 20, 12),
    );
    expect(warnings).toContain(
      "daylight-saving change in Europe/London (the schedule's zone) on 2026-03-29: windows move 1 h earlier in local " +
        "time from then, and 1 h earlier from the change in Australia/Sydney (the prospect's zone) on 2026-04-05",
    );
    // After the first, the windows open at 06:00 in Sydney: said now, not only once it happens.
    expect(warnings[0]).toBe('sends Tue 2026-03-31 06:00-08:00 local, outside 07:00-20:00');
  });

  it('a window that becomes impolite after a change within 30 days is said now (Tokyo 09:00 seen from New York)', () => {
    const { warnings } = prospectWindows(
      weekdays('09:00-10:00'),
      'Asia/Tokyo',
      'America/New_York',
      Date.UTC(2026, 1, 26, 12),
    );
    expect(warnings).toEqual([
      'sends Sun 2026-03-08 20:00-21:00 local, outside 07:00-20:00',
      "daylight-saving change in America/New_York (the prospect's zone) on 2026-03-08: windows move 1 h later in local time from then",
    ]);
  });

  it('a change and its change back are said as such (New York against London in March)', () => {
    const { warnings } = prospectWindows(
      weekdays('09:00-12:00'),
      'America/New_York',
      'Europe/London',
      Date.UTC(2026, 2, 1, 12),
    );
    expect(warnings).toEqual([
      "daylight-saving change in America/New_York (the schedule's zone) on 2026-03-08: windows move 1 h earlier in local time " +
        "from then, and back from the change in Europe/London (the prospect's zone) on 2026-03-29",
    ]);
  });
});

describe('the first window', () => {
  it('open already: it opens at this minute, not at the second and millisecond of the clock', () => {
    // Monday 2026-03-02 14:30:12.345 in London, inside its 14:00-17:00 window.
    const { first } = prospectWindows(
      weekdays('14:00-17:00'),
      'Europe/London',
      'Europe/London',
      Date.UTC(2026, 2, 2, 14, 30, 12, 345),
    );
    expect(first).toEqual({
      schedule: 'Mon 2026-03-02 14:00-17:00',
      local: 'Mon 2026-03-02 14:00-17:00',
      opensAt: '2026-03-02T14:30:00.000Z',
      closesAt: '2026-03-02T17:00:00.000Z',
      localOpensAt: '2026-03-02T14:30:00+00:00',
    });
  });
});
