// listValueReader against what it stands for: a value it takes is one listValueKey would keep as it is (or refuse),
// and its hash is hashText's; every plain value is taken. Each value is read as a page holds it, a JSON string's bytes.
// Edge cases of each rule of listValueKey, the addresses of the email corpora, and strings drawn from the characters
// the rules turn on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ListValueHash, listValueReader } from '../../src/io/list-value-hash.js';
import { isPlainListValue, listValueKey } from '../../src/io/dnc-values.js';
import { hashed, hashText } from '../../src/io/text-hash.js';
import { seededRandom } from '../../src/sandbox/prng.js';

/** What the reader makes of `text` written as JSON (and followed by more of a page, as it is there). */
function read(text: string): ListValueHash | undefined {
  const json = JSON.stringify(text);
  const made = listValueReader.read(Buffer.from(`${json},"type":"email"}`), 1);
  // Taken, it stopped at the closing quote; refused, anywhere before it.
  const end = listValueReader.end;
  if (made ? end !== json.length - 1 : end > json.length - 1) expect([text, end]).toEqual([text, json.length - 1]);
  return made;
}

const taken = (text: string) => read(text) !== undefined;

/** What the one pass says of `text`, and what the slow path says of it: taken, it must be one value either way. */
function compare(text: string): void {
  const made = read(text);
  if (!made) return;
  hashText(text);
  if (made.hi !== hashed[0] || made.lo !== hashed[1]) expect([text, made.hi, made.lo]).toEqual([text, ...hashed]);
  const key = listValueKey(text);
  if (key !== undefined && key !== text) expect([text, key]).toEqual([text, text]);
}

/** A plain value is always taken as it is (the slow path is for the rare rest). */
function plainTaken(text: string): void {
  if (isPlainListValue(text) && !taken(text)) expect([text, false]).toEqual([text, true]);
}

const label63 = 'a'.repeat(63);
const edgeCases = [
  ...['', 'a', '.', '@', 'ann@', '@acme.com', 'acme', 'acme.', '.acme.com', 'acme..com', 'acme.com.'],
  ...['ann@acme.com', 'ann.lee@acme.com', 'ann..lee@acme.com', '.ann@acme.com', 'ann.@acme.com', 'a@b@acme.com'],
  ...['ann_lee%x+y-z@acme.com', 'ann@acme_x.com', 'ann@acme%x.com', 'a+b.com', 'a_b.com', 'Ann@acme.com', 'acme.COM'],
  ...[
    '-acme.com',
    'acme-.com',
    'ac-me.com',
    'acme.-com',
    'acme.com-',
    'acme.c-m',
    'acme.1com',
    'acme.c1m',
    '1acme.com',
  ],
  ...['ann@-acme.com', 'ann@acme-.com', 'ann@acme.1com', 'ann@acme', 'ann@.com', 'ann@acme..com', 'ann@acme.com.'],
  ...['www.acme.com', 'ann@www.acme.com', 'www.com', 'wwwx.com', 'www@acme.com', 'www', 'www.'],
  ...[`${label63}.com`, `a${label63}.com`, `acme.${label63}`, `acme.${label63}a`, `ann@${label63}.com`],
  ...[`ann@a${label63}.com`, `ann@acme.${label63}`, `ann@acme.${label63}b`, 'a.b.c.d.e.f', 'x.y'],
  ...['ann@acme.com ', ' acme.com', 'acme .com', 'ann@acmé.com', 'acmé.com', 'ann@acme.com\n', 'ann@ac\u0000me.com'],
];

function corpusAddresses(): string[] {
  const read = (name: string) =>
    JSON.parse(readFileSync(new URL(`../../fixtures/corpora/emails/${name}`, import.meta.url), 'utf8'));
  const validator = read('validator-js-isEmail.json');
  const addresses = [
    ...(read('isemail-tests.json') as Array<[string]>).map(([address]) => address),
    ...validator.valid,
    ...validator.invalid,
  ] as string[];
  // As lists hold them (lower-case), and as written.
  return addresses.flatMap((address) => [address, address.toLowerCase()]);
}

describe('listValueReader', () => {
  it('takes a value only when listValueKey would keep it as it is or refuse it, with the hash of hashText', () => {
    for (const text of [...edgeCases, ...corpusAddresses()]) {
      compare(text);
      plainTaken(text);
    }
  });

  it('leaves every value a rule rewrites to the slow path, and takes the rest', () => {
    const rewritten = ['@acme.com', 'acme.com.', 'ann@acme.com.', 'www.acme.com', 'Ann@acme.com', ' acme.com'];
    const alsoSlow = ['acmé.com', 'mailto:ann@acme.com', 'https://acme.com/x', 'Ann <ann@acme.com>', ''];
    // Characters a rule cuts at, each on its own: the table must not take them.
    const cut = ['acme.com/x', 'acme.com?x', 'acme.com#x', '<ann@acme.com>', 'acme.com:8080', 'ann@acme.com>'];
    // Nor the bytes a JSON string writes a quote or a backslash with.
    cut.push('ann"@acme.com', 'acme\\x.com');
    expect([...rewritten, ...alsoSlow, ...cut].filter(taken)).toEqual([]);
    // "www." is dropped from a domain only; a value listValueKey refuses is taken, to stop that very text.
    const kept = ['www@acme.com', 'ann@www.acme.com', 'wwwx.com', 'acme..com', 'ann@acme', 'a_b.com'];
    expect(kept.filter(taken)).toEqual(kept);
  });

  it('agrees on 50,000 strings of the characters the rules turn on', () => {
    const random = seededRandom(32);
    const any = (chars: string) => chars[Math.floor(random() * chars.length)]!;
    // Labels of mostly letters and digits, now and then a character a rule turns on, joined by dots and now and then
    // an @: most are near-plain, so plain values are common enough to compare their hashes.
    const label = () =>
      Array.from({ length: Math.floor(random() * 5) }, () => (random() < 0.85 ? any('abw0') : any('-._%+@A é'))).join(
        '',
      );
    let takenCount = 0;
    for (let i = 0; i < 50_000; i++) {
      const labels = Array.from({ length: 1 + Math.floor(random() * 4) }, label);
      const text = random() < 0.5 ? labels.join('.') : `${label()}@${labels.join('.')}`;
      if (taken(text)) takenCount++;
      compare(text);
      plainTaken(text);
    }
    expect(takenCount).toBeGreaterThan(3_000);
  });
});
