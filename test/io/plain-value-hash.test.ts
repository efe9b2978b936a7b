// hashIfPlain against the two steps it fuses: the plain patterns (isPlainListValue) and hashText. Every case must get
// the same verdict, and a plain one the same hash: edge cases of each rule, the addresses of the email corpora, and
// strings drawn from the characters the rules turn on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashIfPlain } from '../../src/io/plain-value-hash.js';
import { isPlainListValue } from '../../src/io/dnc-values.js';
import { hashed, hashText } from '../../src/io/text-hash.js';
import { seededRandom } from '../../src/sandbox/prng.js';

/** What the fused pass says of `text`: the verdict, and the hash when plain. */
function fused(text: string): [boolean, number?, number?] {
  return hashIfPlain(text) ? [true, hashed[0], hashed[1]] : [false];
}

/** What the two steps say. */
function apart(text: string): [boolean, number?, number?] {
  if (!isPlainListValue(text)) return [false];
  hashText(text);
  return [true, hashed[0], hashed[1]];
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

describe('hashIfPlain', () => {
  it('gives the verdict of the plain patterns and, for a plain value, the hash of hashText', () => {
    for (const text of [...edgeCases, ...corpusAddresses()])
      expect([text, ...fused(text)]).toEqual([text, ...apart(text)]);
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
    let plain = 0;
    for (let i = 0; i < 50_000; i++) {
      const labels = Array.from({ length: 1 + Math.floor(random() * 4) }, label);
      const text = random() < 0.5 ? labels.join('.') : `${label()}@${labels.join('.')}`;
      const verdict = fused(text);
      if (verdict[0]) plain++;
      expect([text, ...verdict]).toEqual([text, ...apart(text)]);
    }
    expect(plain).toBeGreaterThan(3_000);
  });
});
