// Third-party email validity lists (fixtures/corpora/emails, see SOURCES.md) against our one policy (src/io/email.ts,
// README "Email policy"). Every address gets the list's verdict, or differs for a reason listed here; an unlisted
// difference fails, and so does a listed address that no longer differs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emailProblem } from '../../src/io/email.js';

const list = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/corpora/emails/${name}`, import.meta.url), 'utf8'));

/** Why we refuse what a list accepts, or accept what it refuses. */
const why = {
  quoted: 'quoted local parts are refused: prospect lists never need them and many senders refuse them',
  literal: 'IP-address domains are refused: no prospect is reached at one',
  singleLabel: 'a domain needs a top-level domain: test@org reaches nobody on the internet',
  numericTop: 'a top-level domain is letters: iana.123 and 255.255.255.255 are no mail domains',
  emoji: 'symbols (emoji) are not letters of a domain name under IDNA2008',
  unassigned: 'U+103FF is not an assigned letter',
  displayName: 'a display name ("My Name <me@x.org>") is not an address',
  fullwidthAt: 'a fullwidth ＠ is not a letter of a local part',
  localOver64: 'RFC 5321 limits the local part to 64 octets; python-email-validator enforces it only with strict=True',
  nfc: 'an address is measured as written, not after Unicode NFC normalisation (U+FB2C is 3 octets, 6 once normalised)',
};

function differences(): Array<{ list: string; address: string; listSays: boolean }> {
  const out: Array<{ list: string; address: string; listSays: boolean }> = [];
  const check = (name: string, address: string, listSays: boolean) => {
    if ((emailProblem(address) === null) !== listSays) out.push({ list: name, address, listSays });
  };
  // isemail's default threshold: `valid` and the rfc5321 categories are valid.
  for (const [address, diagnosis] of list('isemail-tests.json') as Array<[string, string]>)
    check('isemail', address, diagnosis === 'valid' || diagnosis.startsWith('rfc5321'));
  const validator = list('validator-js-isEmail.json');
  for (const address of validator.valid) check('validator.js', address, true);
  for (const address of validator.invalid) check('validator.js', address, false);
  const valid = new Set(['test_email_valid', 'test_email_valid_intl_local_part', 'test_email_invalid_syntax_strict']);
  for (const [group, { cases }] of Object.entries<any>(list('python-email-validator.json').groups))
    for (const c of cases) check('python-email-validator', c.input, valid.has(group));
  return out;
}

function reasonFor({ address }: { address: string }): string | undefined {
  if (address.includes('<')) return why.displayName;
  if (address.startsWith('"')) return why.quoted;
  if (address.includes('@[')) return why.literal;
  if (/@[^.]+$/.test(address)) return why.singleLabel;
  if (/@(iana\.123|255\.255\.255\.255)$/.test(address)) return why.numericTop;
  if (address.includes('😆')) return why.emoji;
  if (address.includes('𐏿')) return why.unassigned;
  if (address.startsWith('＠')) return why.fullwidthAt;
  if (address.normalize('NFC') !== address) return why.nfc;
  if (Buffer.byteLength(address.slice(0, address.lastIndexOf('@'))) > 64) return why.localOver64;
  return undefined;
}

describe('third-party email lists', () => {
  it('agree with the policy, or differ for a reason given here', () => {
    const found = differences();
    expect(found.filter((d) => !reasonFor(d))).toEqual([]);
    const counts: Record<string, { ran: number; agree: number; differ: Record<string, number> }> = {};
    const sizes = {
      isemail: list('isemail-tests.json').length,
      'validator.js': list('validator-js-isEmail.json').valid.length + list('validator-js-isEmail.json').invalid.length,
      'python-email-validator': Object.values<any>(list('python-email-validator.json').groups).reduce(
        (n, g) => n + g.cases.length,
        0,
      ),
    };
    for (const [name, ran] of Object.entries(sizes)) counts[name] = { ran, agree: ran, differ: {} };
    for (const d of found) {
      const entry = counts[d.list]!;
      entry.agree--;
      const key = Object.entries(why).find(([, text]) => text === reasonFor(d))![0];
      entry.differ[key] = (entry.differ[key] ?? 0) + 1;
    }
    expect(counts).toEqual({
      isemail: {
        ran: 210,
        agree: 191,
        differ: { emoji: 1, literal: 7, numericTop: 2, quoted: 6, singleLabel: 2, unassigned: 1 },
      },
      'validator.js': { ran: 59, agree: 56, differ: { quoted: 3 } },
      'python-email-validator': {
        ran: 123,
        agree: 110,
        differ: { displayName: 4, fullwidthAt: 1, localOver64: 2, nfc: 2, quoted: 4 },
      },
    });
  });
});
