// A sync's difference as its journal keeps it, read back for a --resume: what outreach wrote comes back as it was;
// a text that would drive the terminal is shown; anything outreach would not have written is not used.
import { describe, expect, it } from 'vitest';
import { diffRecord, readDiffRecord, type DncSyncDiff } from '../../src/jobs/dnc-sync-record.js';

const diff: DncSyncDiff = {
  file: 'unsub.csv',
  list: { id: 'dncCustmr2', name: 'Current customers', values: 2 },
  source: { name: 'mailchimp', title: 'a Mailchimp unsubscribed export' },
  rows: 5,
  new: { email: 1, domain: 0 },
  coveredByDomain: 1,
  alreadyThere: { email: 1, domain: 1 },
  invalid: 1,
  duplicates: 1,
  leftOut: { rows: 2, reasons: { 'status "subscribed" in Mailchimp, not an opt-out': 2 } },
  files: { rejected: '/tmp/unsub.rejected.csv', new: '/tmp/unsub.dnc-sync-new.csv' },
};
/** The record as it comes back from the journal's JSON. */
const roundTrip = (value: unknown) => readDiffRecord(JSON.parse(JSON.stringify(value)));

describe('a sync difference kept in its journal', () => {
  it('is kept without its files, and read back as it was written', () => {
    const { files: _files, ...kept } = diff;
    expect(diffRecord(diff)).toEqual(kept);
    expect(roundTrip(diffRecord(diff))).toEqual(kept);
  });

  it('keeps a list name longer than the reader takes cut to it, so a resume still reads it back', () => {
    const long = { ...diff, list: { ...diff.list, name: 'n'.repeat(5000) } };
    expect(roundTrip(diffRecord(long))?.list.name).toBe('n'.repeat(4096));
  });

  it("reads an older outreach's record, which has no coveredByDomain, as none", () => {
    const { coveredByDomain: _covered, ...older } = diffRecord(diff);
    expect(roundTrip(older)?.coveredByDomain).toBe(0);
  });

  it('shows a control character of a text rather than printing it', () => {
    const record = { ...diffRecord(diff), list: { ...diff.list, name: 'Red\u001b[2Jlist' } };
    expect(roundTrip(record)?.list.name).toBe('Red\\u001b[2Jlist');
  });

  it.each([
    ['a negative count', { invalid: -1 }],
    ['a count that is not whole', { rows: 2.5 }],
    ['a count given as text', { duplicates: '1' }],
    ['a tool outreach does not know', { source: { name: 'evil', title: 'x' } }],
    ['a member outreach does not write', { files: { rejected: '/etc/passwd' } }],
    ['a list name of a megabyte', { list: { ...diff.list, name: 'x'.repeat(1 << 20) } }],
    [
      'more kinds of reason than it keeps',
      { leftOut: { rows: 22, reasons: Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`r${i}`, 1])) } },
    ],
  ])('is not used with %s', (_, change) => {
    expect(roundTrip({ ...diffRecord(diff), ...change })).toBeUndefined();
  });

  it('is not used when there is none (an older outreach kept none), or it is not an object', () => {
    expect(readDiffRecord(undefined)).toBeUndefined();
    expect(readDiffRecord('diff')).toBeUndefined();
    expect(readDiffRecord([])).toBeUndefined();
  });

  it('a reason named __proto__ is dropped, and changes no prototype', () => {
    const record = { ...diffRecord(diff), leftOut: { rows: 2, reasons: { PLACE: 2 } } };
    const parsed = JSON.parse(JSON.stringify(record).replace('PLACE', '__proto__')) as typeof record;
    expect(Object.keys(parsed.leftOut.reasons)).toEqual(['__proto__']); // JSON.parse makes it a member
    const reasons = readDiffRecord(parsed)!.leftOut.reasons;
    expect(Object.keys(reasons)).toEqual([]);
    expect(Object.getPrototypeOf(reasons)).toBeNull();
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });
});
