import { describe, expect, it } from 'vitest';
import { DncSet } from '../../src/io/import/dnc-set.js';

describe('DncSet', () => {
  it('finds an email whole, by its domain and by a parent domain, and names the first list that has it', () => {
    const set = new DncSet(4);
    set.add('legal@bigcorp.com', 0);
    set.add('competitor.com', 1);
    set.add('legal@bigcorp.com', 1); // already held: keeps list 0
    expect(set.size).toBe(2);
    expect(set.listOfEmail('legal@bigcorp.com')).toBe(0);
    expect(set.listOfEmail('dan@competitor.com')).toBe(1);
    expect(set.listOfEmail('dan@mail.eu.competitor.com')).toBe(1);
    expect(set.listOfEmail('other@bigcorp.com')).toBe(-1);
    expect(set.listOfEmail('dan@notcompetitor.com')).toBe(-1);
  });

  it('never takes a top-level domain on its own for a listed domain', () => {
    const set = new DncSet();
    set.add('com', 0);
    expect(set.listOfEmail('a@b.com')).toBe(-1);
    expect(set.find('com')).toBe(0);
  });

  it('grows past the size it was given and still finds every value', () => {
    const set = new DncSet(10);
    for (let i = 0; i < 50_000; i++) set.add(`p${i}@c${i % 97}.example`, i % 3);
    expect(set.size).toBe(50_000);
    for (let i = 0; i < 50_000; i += 997) expect(set.listOfEmail(`p${i}@c${i % 97}.example`)).toBe(i % 3);
    let found = 0;
    for (let i = 50_000; i < 100_000; i++) if (set.listOfEmail(`p${i}@c${i % 97}.example`) >= 0) found++;
    expect(found).toBe(0);
  });

  it('refuses a list number past what a slot holds', () => {
    expect(() => new DncSet().add('a.example', 0xffff)).toThrow(/more than 65535 do-not-contact lists/);
  });

  it('takes a size from the service as a hint only: not a number, negative or absurd, it starts small', () => {
    for (const size of [Number.NaN, -5, Number.POSITIVE_INFINITY, 1e12]) {
      const set = new DncSet(size);
      set.add('a.example', 0);
      expect(set.find('a.example')).toBe(0);
      expect(set.find('b.example')).toBe(-1);
    }
  });

  it('keeps the first list of values read before a second list appears, through growth', () => {
    const set = new DncSet(10);
    for (let i = 0; i < 1_000; i++) set.add(`first${i}.example`, 0);
    set.add('second.example', 2);
    for (let i = 0; i < 1_000; i++) set.add(`more${i}.example`, 0);
    expect(set.find('first0.example')).toBe(0);
    expect(set.find('first999.example')).toBe(0);
    expect(set.find('more999.example')).toBe(0);
    expect(set.find('second.example')).toBe(2);
  });

  it('places values a block at a time without losing one: past a block, across lists, between lookups', () => {
    const set = new DncSet(10);
    for (let i = 0; i < 70_000; i++) set.add(`v${i}.example`, 1);
    for (let i = 0; i < 70_000; i += 7) set.add(`v${i}.example`, 0); // held already: keeps list 1
    set.add('late.example', 2);
    expect(set.find('late.example')).toBe(2);
    set.add('later.example', 2);
    expect(set.size).toBe(70_002);
    expect([set.find('v0.example'), set.find('v69999.example'), set.find('later.example')]).toEqual([1, 1, 2]);
  });

  it('holds a value whose hash is 0, 0 (the empty mark) as 0, 1', () => {
    const set = new DncSet();
    set.addHash(0, 0, 0);
    expect(set.size).toBe(1);
    set.addHash(0, 1, 0);
    expect(set.size).toBe(1);
    set.addHash(0, 2, 0);
    expect(set.size).toBe(2);
  });
});
