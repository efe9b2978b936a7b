// The lean answer reader against JSON.parse: the same verdict on every text, and JSON.parse's value less the members
// not kept. On JSONTestSuite's 318 parser cases and on thousands of damaged do-not-contact pages.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { KeptMembers, notJson, parseJsonKeeping } from '../../src/api/lean-json.js';

const suite = fileURLToPath(new URL('../../fixtures/corpora/json-test-suite/test_parsing/', import.meta.url));

/** What JSON.parse makes of the bytes (decoded as the client decodes answers), members not in `keep` left out. */
function expected(bytes: Buffer, keep: ReadonlySet<string> | 'all'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return notJson;
  }
  const project = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(project);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [name, member] of Object.entries(node))
      if (keep === 'all' || keep.has(name)) out[name] = project(member);
    return out;
  };
  return project(value);
}

/** Every member name of a parsed value (to keep them all). */
function namesIn(bytes: Buffer): string[] {
  const names = new Set<string>();
  const walk = (node: unknown) => {
    if (typeof node !== 'object' || node === null) return;
    for (const [name, member] of Object.entries(node)) {
      if (/^[\x20-\x21\x23-\x5b\x5d-\x7e]+$/.test(name) && name !== '__proto__') names.add(name);
      walk(member);
    }
  };
  try {
    walk(JSON.parse(bytes.toString('utf8')));
  } catch {
    // not JSON: no names to keep
  }
  return [...names];
}

/** A reader taking strings of a-z, "." and "@" only, as {taken: text}. */
const lettersReader = {
  end: 0,
  read(bytes: Uint8Array, start: number) {
    let at = start;
    while (/[a-z.@]/.test(String.fromCharCode(bytes[at] ?? 0))) at++;
    this.end = at;
    return bytes[at] === 0x22 ? { taken: Buffer.from(bytes.subarray(start, at)).toString('latin1') } : undefined;
  },
};

/** A parsed value with every member named "value" that lettersReader takes (a-z, "." and "@") as it makes it. */
function takenLetters(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(takenLetters);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([name, member]) => [
      name,
      name === 'value' && typeof member === 'string' && /^[a-z.@]*$/.test(member)
        ? { taken: member }
        : takenLetters(member),
    ]),
  );
}

function agrees(bytes: Buffer, names: string[]): void {
  const actual = parseJsonKeeping(bytes, new KeptMembers(names));
  expect(actual).toEqual(expected(bytes, new Set(names)));
}

describe('parseJsonKeeping on JSONTestSuite', () => {
  const files = readdirSync(suite).filter((name) => name.endsWith('.json'));

  it('has the suite', () => {
    expect(files.length).toBe(318);
  });

  it.each(files)('%s: the verdict and value of JSON.parse', (name) => {
    const bytes = readFileSync(join(suite, name));
    const names = namesIn(bytes);
    agrees(bytes, names);
    agrees(bytes, names.slice(0, Math.ceil(names.length / 2)));
    agrees(bytes, []);
    if (name.startsWith('y_')) expect(parseJsonKeeping(bytes, new KeptMembers(names))).not.toBe(notJson);
    if (name.startsWith('n_')) expect(parseJsonKeeping(bytes, new KeptMembers(names))).toBe(notJson);
  });
});

const pageKeep = ['payload', 'dncDetails', 'meta', 'totalPages', 'value'];

function page(values: string[]): string {
  const items = values.map((value, i) => ({
    id: `id${i}`,
    value,
    type: value.includes('@') ? 'email' : 'domain',
    createdAt: '2026-11-28T04:43:14.015Z',
    addedBy: 'Alice Admin',
  }));
  const meta = { totalItems: 1000, currentPage: 3, itemsPerPage: 100, totalPages: 10, itemCount: values.length };
  return JSON.stringify({ payload: { message: 'DNC list fetched successfully', dncDetails: items, meta } });
}

/** A seeded generator: the same damaged pages on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

describe('parseJsonKeeping on edge texts', () => {
  const texts = [
    '[00]',
    '[-0]',
    '[-00]',
    '[0.0e-0]',
    '[1.]',
    '[1e+]',
    '[-]',
    '\f[1]',
    '[1]\u00a0',
    '\ufeff[1]',
    '{"a":1,"a":2}',
  ];
  it.each(texts)('%j: as JSON.parse', (text) => {
    agrees(Buffer.from(text), ['a']);
  });
});

describe('parseJsonKeeping on do-not-contact pages', () => {
  it('keeps the values and the page count, nothing else', () => {
    const bytes = Buffer.from(page(['ann@acme.com', 'acme.org']));
    expect(parseJsonKeeping(bytes, new KeptMembers(pageKeep))).toEqual({
      payload: { dncDetails: [{ value: 'ann@acme.com' }, { value: 'acme.org' }], meta: { totalPages: 10 } },
    });
  });

  it('reads escapes, non-ASCII and invalid UTF-8 as JSON.parse does', () => {
    const values = ['j\u00f6rg@b\u00fccher.de', 'a"b\\c@x.com', '\u2028@x.com', '\ud83d\ude00.example', '\ud800'];
    const text = page(values).replace('acme', '\\u0061cme');
    agrees(Buffer.from(text), pageKeep);
    const raw = Buffer.from(page(['XXXX@x.com']));
    raw.set([0xc3, 0x28, 0xe2, 0x82], raw.indexOf('XXXX')); // an invalid pair and a cut-off sequence
    agrees(raw, pageKeep);
    expect(JSON.stringify(parseJsonKeeping(raw, new KeptMembers(pageKeep)))).toContain('\ufffd(\ufffd@x.com');
  });

  it('gives a document nested past its depth whole, as JSON.parse does', () => {
    const deep = Buffer.from(`${'['.repeat(2000)}{"value":1,"id":2}${']'.repeat(2000)}`);
    expect(parseJsonKeeping(deep, new KeptMembers(['value']))).toEqual(JSON.parse(deep.toString()));
    expect(parseJsonKeeping(Buffer.from(`${'['.repeat(2000)}${']'.repeat(1999)}`), new KeptMembers([]))).toBe(notJson);
  });

  it('agrees with JSON.parse on 3,000 damaged pages', () => {
    const next = random(32);
    const pick = <T>(from: readonly T[]) => from[Math.floor(next() * from.length)]!;
    const pieces = [
      '"',
      '\\',
      '\\u',
      '\\u12',
      ',',
      ':',
      '{',
      '}',
      '[',
      ']',
      ' ',
      '\t',
      '\n',
      '\u0001',
      '\u00e9',
      '-',
      '0',
      '1e',
      '.',
      'true',
      'nul',
    ];
    const whole = page(['ann@acme.com', 'bob@b.org', 'acme.org', 'x@y.io']);
    let refused = 0;
    for (let round = 0; round < 3000; round++) {
      const bytes = Buffer.from(whole);
      let damaged: Buffer;
      const kind = round % 3;
      if (kind === 0)
        damaged = bytes.subarray(0, Math.floor(next() * bytes.length)); // cut off
      else if (kind === 1) {
        damaged = Buffer.from(bytes);
        for (let n = 1 + Math.floor(next() * 3); n > 0; n--)
          damaged[Math.floor(next() * damaged.length)] = Math.floor(next() * 256);
      } else {
        const at = Math.floor(next() * bytes.length);
        damaged = Buffer.concat([bytes.subarray(0, at), Buffer.from(pick(pieces)), bytes.subarray(at)]);
      }
      const actual = parseJsonKeeping(damaged, new KeptMembers(pageKeep));
      expect(actual, damaged.toString('latin1')).toEqual(expected(damaged, new Set(pageKeep)));
      if (actual === notJson) refused++;
      // With a reader of the values: the same verdict, each value it takes as it made it.
      const read = parseJsonKeeping(damaged, new KeptMembers(pageKeep, { value: lettersReader }));
      expect(read, damaged.toString('latin1')).toEqual(takenLetters(expected(damaged, new Set(pageKeep))));
    }
    // Most damage breaks the page; some leaves it JSON (a changed letter in a value): both kinds were tried.
    expect(refused).toBeGreaterThan(1500);
    expect(refused).toBeLessThan(3000);
  });

  it("reads a member's strings by its reader where it takes them, and as usual where it does not", () => {
    const parse = (text: string) =>
      parseJsonKeeping(Buffer.from(text), new KeptMembers(['value'], { value: lettersReader }));
    expect(parse('{"value":"ann@acme.com","id":"x"}')).toEqual({ value: { taken: 'ann@acme.com' } });
    expect(parse('[{"value":"Ann"},{"value":"a\\u0062"},{"value":"a\\"b"},{"value":5},{"value":["c"]}]')).toEqual([
      { value: 'Ann' },
      { value: 'ab' },
      { value: 'a"b' },
      { value: 5 },
      { value: ['c'] },
    ]);
    expect(parse('{"value":"abc')).toBe(notJson);
    expect(parse('{"value":"abc"')).toBe(notJson);
    // A reader that stops short of the closing quote and still makes a value breaks its contract: never taken as JSON.
    const short = { end: 0, read: (_bytes: Uint8Array, start: number) => ((short.end = start), 'x') };
    expect(() =>
      parseJsonKeeping(Buffer.from('{"value":"abc"}'), new KeptMembers(['value'], { value: short })),
    ).toThrow(/closing quote/);
  });

  it('never keeps __proto__ as a member, nor takes it as a prototype', () => {
    expect(() => new KeptMembers(['__proto__'])).toThrow(/__proto__/);
    const value = parseJsonKeeping(Buffer.from('{"__proto__":{"polluted":1},"value":"a"}'), new KeptMembers(['value']));
    expect(value).toEqual({ value: 'a' });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});
