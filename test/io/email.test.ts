// The email policy against public vectors (from the hapijs/address and validator.js test suites, and RFC 3696 examples).
import { describe, expect, it } from 'vitest';
import { domainProblem, emailProblem } from '../../src/io/email.js';

const valid = [
  'simple@example.com',
  'very.common@example.com',
  'disposable.style.email.with+symbol@example.com',
  'other.email-with-hyphen@example.com',
  'fully-qualified-domain@example.com',
  'user.name+tag+sorting@example.com',
  'x@example.com',
  'example-indeed@strange-example.com',
  'admin@mailserver1.example',
  'example@s.example',
  'mailhost!username@example.org',
  'user%example.com@example.org',
  'user-@example.org',
  'customer/department=shipping@example.com',
  '$A12345@example.com',
  '!def!xyz%abc@example.com',
  '_somename@example.com',
  "o'brien@example.ie",
  'test@xn--bcher-kva.example',
  'test@bücher.example',
  'josé@example.es',
  'δοκιμή@παράδειγμα.δοκιμή',
  '我買@屋企.香港',
  'user@sub.domain.example.co.uk',
  'a.b.c.d@e.f.gh',
  '1234567890@example.com',
  'test@123.example.com',
  'first.last@iana.org',
  'a+b@c.io',
  'Abc@example.com',
  'TEST@EXAMPLE.COM',
  `${'a'.repeat(64)}@example.com`,
  'test@a-b.example',
  '~@example.com',
  '{x}@example.com',
  'x@x.museum',
  'user@example.travel',
  'u{s}er@example.com',
  'x=y@example.com',
];

const invalid = [
  '',
  'plainaddress',
  '@example.com',
  'Abc.example.com',
  'A@b@c@example.com',
  'a"b(c)d,e:f;g<h>i[j\\k]l@example.com',
  'just"not"right@example.com',
  'this is"not\\allowed@example.com',
  'this\\ still\\"not\\\\allowed@example.com',
  `${'a'.repeat(65)}@example.com`,
  'i_like_underscore@but_its_not_allowed_in_this_part.example.com',
  'QA[icon]CHOCOLATE[icon]@test.com',
  'a.b.c.d@e.f.g', // no top-level domain has one letter
  `${'é'.repeat(33)}@example.com`, // 33 characters, 66 octets: RFC 5321 counts octets
  `${'a'.repeat(10)}@${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(61)}.${'e'.repeat(61)}.com`, // 262 octets in all
  'test@iana.co-uk', // a top-level domain is letters (or an xn-- label)
  'test@iana-.com',
  'test@-iana.com',
  'test@.iana.org',
  'test@iana.org.',
  'test@iana..com',
  '.test@iana.org',
  'test.@iana.org',
  'te..st@iana.org',
  'test@[255.255.255.255]',
  'test@[IPv6:1111:2222:3333:4444:5555:6666:7777:8888]',
  '"test"@iana.org',
  '"test\\"blah"@iana.org',
  'test@localhost',
  'test@example',
  'test@123.123',
  'test@255.255.255.255',
  'test @iana.org',
  'test@ iana.org',
  'test@iana .org',
  ' test@iana.org',
  'test@iana.org ',
  'a@b.c-',
  'foo@bar.com,baz@qux.com',
  'a@b;c@d.com',
  'test@',
  'test@@iana.org',
  'x@' + 'a'.repeat(64) + '.com',
  'test@iana.org\n',
];

describe('emailProblem', () => {
  it.each(valid)('accepts %s', (email) => expect(emailProblem(email)).toBeNull());
  it.each(invalid)('refuses %j', (email) => expect(emailProblem(email)).not.toBeNull());

  it('says why', () => {
    expect(emailProblem('no-at.example')).toBe('missing @');
    expect(emailProblem('@x.example')).toBe('empty local part');
    expect(emailProblem('a@iana-.com')).toBe('invalid domain "iana-.com"');
    expect(emailProblem('a@localhost')).toBe('invalid domain "localhost": no top-level domain');
    expect(domainProblem('bad_domain!')).toBe(
      'invalid domain "bad_domain!": "_" is not a letter, digit, hyphen or dot',
    );
    // A character nobody sees (a zero-width space pasted from a web page) is written so it can be found.
    expect(domainProblem('exa\u200bmple.com')).toBe(
      'invalid domain "exa\\u200bmple.com": "\\u200b" is not a letter, digit, hyphen or dot',
    );
    expect(domainProblem('a\u{e0041}.com')).toContain('"\\u{e0041}" is not');
    expect(emailProblem('"q"@x.example')).toBe('quoted local parts are not accepted');
  });
});
