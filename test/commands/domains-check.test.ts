// domains check through the real CLI, against a DNS server of the test's own on 127.0.0.1 (test/helpers/dns-server.ts)
// holding good, broken and missing records, and the sandbox's sending domains.
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestDns, type TestDns, type Zone } from '../helpers/dns-server.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { commonSelectors } from '../../src/dns/dkim.js';
import { resolverAddress } from '../../src/dns/resolver.js';
import { UsageError } from '../../src/errors.js';

/** A real RSA public key of `bits`, base64, as SubjectPublicKeyInfo (what providers publish) or bare PKCS#1. */
const rsaKey = (bits: number, type: 'spki' | 'pkcs1' = 'spki') =>
  generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'der', type }).toString('base64');
const key2048 = rsaKey(2048);
const key1024 = rsaKey(1024);
const mx = [{ preference: 10, exchange: 'mx.provider.example' }];
const spf = 'v=spf1 include:_spf.provider.example ~all';
const dmarc = (domain: string) => `v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`;
const dkim = `v=DKIM1; k=rsa; p=${key2048}`;
/** A good domain, then the same with one thing changed. */
const good = (domain: string, change: Zone = {}): Zone => ({
  [domain]: { MX: mx, TXT: [spf, 'google-site-verification=abc'] },
  [`_dmarc.${domain}`]: { TXT: [dmarc(domain)] },
  [`google._domainkey.${domain}`]: { TXT: [dkim] },
  ...change,
});
/** Includes that cost 12 lookups in all: a chain of 11 includes under one. */
const chain: Zone = Object.fromEntries(
  Array.from({ length: 11 }, (_, i) => [
    `l${i}.chain.example`,
    { TXT: [i < 10 ? `v=spf1 include:l${i + 1}.chain.example ~all` : 'v=spf1 ip4:192.0.2.0/24 ~all'] },
  ]),
);

const zone: Zone = {
  '_spf.provider.example': { TXT: ['v=spf1 ip4:192.0.2.0/24 ip6:2001:db8::/32 ~all'] },
  ...chain,
  ...good('good.example'),
  ...good('new-launch.co'),
  ...good('try-outreach.com', { 'try-outreach.com': { MX: mx, TXT: [] } }),
  ...good('no-mx.example', { 'no-mx.example': { TXT: [spf] } }),
  ...good('web-only.example', { 'web-only.example': { TXT: [spf], A: ['192.0.2.80'] } }),
  ...good('null-mx.example', { 'null-mx.example': { MX: [{ preference: 0, exchange: '.' }], TXT: [spf] } }),
  // A parent's record whose p= is no policy voids its sp= too (RFC 7489 6.6.3): the subdomain is not covered.
  ...good('sub.dmarc-badp.example', { '_dmarc.sub.dmarc-badp.example': {} }),
  '_dmarc.dmarc-badp.example': { TXT: ['v=DMARC1; p=rejct; sp=reject; rua=mailto:d@dmarc-badp.example'] },
  ...good('null-mx-mixed.example', {
    'null-mx-mixed.example': { MX: [{ preference: 0, exchange: '.' }, ...mx], TXT: [spf] },
  }),
  ...good('two-spf.example', { 'two-spf.example': { MX: mx, TXT: [spf, 'v=spf1 mx -all'] } }),
  ...good('two-spf-open.example', { 'two-spf-open.example': { MX: mx, TXT: ['v=spf1 +all', 'v=spf1 -all'] } }),
  ...good('plus-all.example', { 'plus-all.example': { MX: mx, TXT: ['v=spf1 mx +all'] } }),
  ...good('no-all.example', { 'no-all.example': { MX: mx, TXT: ['v=spf1 mx'] } }),
  ...good('lookups.example', { 'lookups.example': { MX: mx, TXT: ['v=spf1 include:l0.chain.example mx -all'] } }),
  // 22 lookups, through the chain twice: past 15, includes are no longer followed.
  ...good('lookups22.example', {
    'lookups22.example': { MX: mx, TXT: ['v=spf1 include:l0.chain.example include:l0.chain.example -all'] },
  }),
  ...good('dangling.example', { 'dangling.example': { MX: mx, TXT: ['v=spf1 include:gone.example ~all'] } }),
  ...good('no-dmarc.example', { '_dmarc.no-dmarc.example': {} }),
  ...good('dmarc-none.example', { '_dmarc.dmarc-none.example': { TXT: ['v=DMARC1; p=none'] } }),
  ...good('dmarc-void.example', {
    '_dmarc.dmarc-void.example': { TXT: ['v=DMARC1; rua=mailto:x@dmarc-void.example'] },
  }),
  ...good('dmarc-strict.example', {
    '_dmarc.dmarc-strict.example': { TXT: ['v=DMARC1; p=quarantine; rua=mailto:d@dmarc-strict.example; aspf=s'] },
  }),
  ...good('no-dkim.example', { 'google._domainkey.no-dkim.example': {} }),
  ...good('revoked.example', { 'google._domainkey.revoked.example': { TXT: ['v=DKIM1; k=rsa; p='] } }),
  ...good('weak.example', { 'google._domainkey.weak.example': { TXT: [`v=DKIM1; k=rsa; p=${key1024}`] } }),
  ...good('weak512.example', { 'google._domainkey.weak512.example': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(512)}`] } }),
  ...good('pkcs1.example', { 'google._domainkey.pkcs1.example': { TXT: [`v=DKIM1; p=${rsaKey(3072, 'pkcs1')}`] } }),
  ...good('not-a-key.example', { 'google._domainkey.not-a-key.example': { TXT: ['v=DKIM1; k=rsa; p=AAAA'] } }),
  'a.diamond.example': { TXT: ['v=spf1 include:c.diamond.example ~all'] },
  'b.diamond.example': { TXT: ['v=spf1 include:c.diamond.example ~all'] },
  'c.diamond.example': { TXT: ['v=spf1 ip4:192.0.2.1 ~all'] },
  ...good('diamond.example', {
    'diamond.example': { MX: mx, TXT: ['v=spf1 include:a.diamond.example include:b.diamond.example -all'] },
  }),
  'loop.example': { MX: mx, TXT: ['v=spf1 include:l2.loop.example ~all'] },
  'l2.loop.example': { TXT: ['v=spf1 include:loop.example ~all'] },
  '_dmarc.loop.example': { TXT: [dmarc('loop.example')] },
  'google._domainkey.loop.example': { TXT: [dkim] },
  // A subdomain without a DMARC record of its own: its organisational domain's record (and its sp=) applies.
  ...good('mail.org.example', { '_dmarc.mail.org.example': {} }),
  '_dmarc.org.example': { TXT: ['v=DMARC1; p=none; sp=reject; rua=mailto:d@org.example'] },
  ...good('servfail.example', { '_dmarc.servfail.example': { SERVFAIL: true } }),
  // SPF whose all is elsewhere: through a redirect (RFC 7208 6.1) or an include that passes everyone (5.2).
  'open.example': { TXT: ['v=spf1 +all'] },
  'ips.example': { TXT: ['v=spf1 ip4:192.0.2.9'] },
  ...good('redirect-open.example', { 'redirect-open.example': { MX: mx, TXT: ['v=spf1 redirect=open.example'] } }),
  ...good('redirect-bare.example', { 'redirect-bare.example': { MX: mx, TXT: ['v=spf1 redirect=ips.example'] } }),
  ...good('redirect-gone.example', { 'redirect-gone.example': { MX: mx, TXT: ['v=spf1 redirect=gone.example'] } }),
  ...good('include-open.example', { 'include-open.example': { MX: mx, TXT: ['v=spf1 include:open.example -all'] } }),
  ...good('upper-tags.example', { 'google._domainkey.upper-tags.example': { TXT: [`V=DKIM1; K=RSA; P=${key2048}`] } }),
  ...good('testing-key.example', {
    'google._domainkey.testing-key.example': { TXT: [`v=DKIM1; k=rsa; t=y; p=${key2048}`] },
  }),
  ...good('weak1536.example', { 'google._domainkey.weak1536.example': { TXT: [`v=DKIM1; k=rsa; p=${rsaKey(1536)}`] } }),
  ...good('dmarc-lower.example', {
    '_dmarc.dmarc-lower.example': { TXT: ['v=dmarc1; p=reject; rua=mailto:d@dmarc-lower.example'] },
  }),
  ...good('dmarc-nosemi.example', {
    '_dmarc.dmarc-nosemi.example': { TXT: ['v=DMARC1 p=reject rua=mailto:d@dmarc-nosemi.example'] },
  }),
  ...good('spf-macro.example', {
    'spf-macro.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example exists:%{l1r+/}.%{d} -all'] },
  }),
  ...good('dmarc-commas.example', {
    '_dmarc.dmarc-commas.example': {
      TXT: ['v=DMARC1,p=reject,rua=mailto:a@dmarc-commas.example, mailto:b@dmarc-commas.example'],
    },
  }),
  ...good('spf-typo.example', { 'spf-typo.example': { MX: mx, TXT: ['v=spf1 inclde:_spf.provider.example -all'] } }),
  ...good('spf-cidr.example', { 'spf-cidr.example': { MX: mx, TXT: ['v=spf1 ip4:192.0.2.1/33 -all'] } }),
  ...good('spf-cidr0.example', { 'spf-cidr0.example': { MX: mx, TXT: ['v=spf1 ip4:192.0.2.0/024 -all'] } }),
  ...good('spf-empty-a.example', { 'spf-empty-a.example': { MX: mx, TXT: ['v=spf1 a: -all'] } }),
  ...good('spf-badmacro.example', { 'spf-badmacro.example': { MX: mx, TXT: ['v=spf1 exists:%{t}.spf.example -all'] } }),
  ...good('spf-macro-ok.example', {
    'spf-macro-ok.example': {
      MX: mx,
      TXT: ['v=spf1 exists:%{ir}.%{l1r+-}._spf.%{d} include:_spf.provider.example -all'],
    },
  }),
  ...good('spf-a0.example', { 'spf-a0.example': { MX: mx, A: ['192.0.2.9'], TXT: ['v=spf1 a/0 -all'] } }),
  ...good('spf-redirect0.example', { 'spf-redirect0.example': { MX: mx, TXT: ['v=spf1 redirect=open0.example'] } }),
  'open0.example': { TXT: ['v=spf1 ip4:0.0.0.0/0 -all'] },
  ...good('spf-localhost.example', { 'spf-localhost.example': { MX: mx, TXT: ['v=spf1 a:localhost -all'] } }),
  ...good('spf-exists-cidr.example', {
    'spf-exists-cidr.example': { MX: mx, TXT: ['v=spf1 exists:e.provider.example/24 -all'] },
  }),
  ...good('spf-zone-id.example', { 'spf-zone-id.example': { MX: mx, TXT: ['v=spf1 ip6:fe80::1%eth0 -all'] } }),
  ...good('spf-after-all.example', {
    'spf-after-all.example': { MX: mx, TXT: ['v=spf1 ip4:192.0.2.1 -all include:gone.example a:n1.gone.example'] },
  }),
  ...good('spf-empty-redirect.example', { 'spf-empty-redirect.example': { MX: mx, TXT: ['v=spf1 -all redirect='] } }),
  ...good('spf-macro0.example', { 'spf-macro0.example': { MX: mx, TXT: ['v=spf1 exists:%{d0}.x.example -all'] } }),
  ...good('spf-ptrx.example', { 'spf-ptrx.example': { MX: mx, TXT: ['v=spf1 ptrx=foo -all'] } }),
  ...good('dmarc-space.example', {
    '_dmarc.dmarc-space.example': { TXT: [' v=DMARC1; p=reject; rua=mailto:d@dmarc-space.example'] },
  }),
  ...good('spf-space.example', {
    'spf-space.example': { MX: mx, TXT: [' v=spf1 include:_spf.provider.example -all'] },
  }),
  ...good('spf-redirects.example', {
    'spf-redirects.example': { MX: mx, TXT: ['v=spf1 redirect=_spf.provider.example redirect=ips.example'] },
  }),
  ...good('dmarc-pct.example', {
    '_dmarc.dmarc-pct.example': { TXT: ['v=DMARC1; p=reject; pct=0; rua=mailto:d@dmarc-pct.example'] },
  }),
  ...good('dmarc-twice.example', {
    '_dmarc.dmarc-twice.example': { TXT: ['v=DMARC1; p=none; rua=mailto:d@dmarc-twice.example; P=reject'] },
  }),
  ...good('dmarc-typo.example', {
    '_dmarc.dmarc-typo.example': { TXT: ['v=DMARC1; p=rejct; rua=mailto:d@dmarc-typo.example'] },
  }),
  // Subdomains under a parent's record: its sp= is what applies (and what to change), two records there void it.
  ...good('sub.dsp.example', { '_dmarc.sub.dsp.example': {} }),
  '_dmarc.dsp.example': { TXT: ['v=DMARC1; p=reject; sp=none; rua=mailto:d@dsp.example'] },
  ...good('sub.dptwo.example', { '_dmarc.sub.dptwo.example': {} }),
  '_dmarc.dptwo.example': { TXT: [dmarc('dptwo.example'), 'v=DMARC1; p=none'] },
  // Found by a review against the RFCs: what receivers read as a permanent error or an open door, and keys they ignore.
  'bad-inner.example': { TXT: ['v=spf1 ip4:300.1.2.3 ~all'] },
  'to-open.example': { TXT: ['v=spf1 redirect=open.example'] },
  // SPF terms whose lookups find nothing ("void lookups", RFC 7208 4.6.4), and an mx term with too many records.
  ...good('spf-void.example', {
    'spf-void.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example a:old-host.example -all'] },
  }),
  ...good('spf-voids.example', {
    'spf-voids.example': { MX: mx, TXT: ['v=spf1 a:gone1.example mx:gone2.example ~all'] },
    'sub.spf-voids.example': { TXT: ['v=spf1 exists:gone3.example -all'] },
  }),
  ...good('spf-voids3.example', {
    'spf-voids3.example': {
      MX: mx,
      TXT: ['v=spf1 include:sub.spf-voids.example a:gone1.example mx:gone2.example -all'],
    },
  }),
  // DMARC reports to another organisation's domain: taken only where it says so (RFC 7489 7.1).
  ...good('dmarc-ext.example', {
    '_dmarc.dmarc-ext.example': {
      TXT: ['v=DMARC1; p=reject; rua=mailto:agg@in.reports.example,mailto:d@dmarc-ext.example'],
    },
    'dmarc-ext.example._report._dmarc.in.reports.example': { TXT: ['v=DMARC1'] },
  }),
  // A report destination whose name servers fail: nothing is known about it, and nothing is said.
  ...good('dmarc-extfail.example', {
    '_dmarc.dmarc-extfail.example': { TXT: ['v=DMARC1; p=reject; rua=mailto:agg@broken.reports.example'] },
    'dmarc-extfail.example._report._dmarc.broken.reports.example': { SERVFAIL: true },
  }),
  ...good('dmarc-extno.example', {
    '_dmarc.dmarc-extno.example': { TXT: ['v=DMARC1; p=reject; rua=mailto:agg@in.reports.example!10m'] },
  }),
  // An international name: DNS holds it as xn--; its reports to its own name, written in Unicode, are its own.
  ...good('xn--bcher-kva.example', {
    '_dmarc.xn--bcher-kva.example': {
      TXT: ['v=DMARC1; p=reject; rua=mailto:d@bücher.example,mailto:e@xn--bcher-kva.example'],
    },
  }),
  // A non-breaking space pasted between two terms: receivers read one term that is none.
  ...good('spf-nbsp.example', {
    'spf-nbsp.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example\u00a0~all'] },
  }),
  // An a: term whose name's servers fail: not known, said, and the rest of the record judged.
  ...good('spf-aservfail.example', {
    'spf-aservfail.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example a:broken-host.example -all'] },
    'broken-host.example': { SERVFAIL: true },
  }),
  ...good('spf-ptr.example', { 'spf-ptr.example': { MX: mx, TXT: ['v=spf1 ptr:provider.example -all'] } }),
  ...good('spf-hosts.example', {
    'spf-hosts.example': { MX: mx, A: ['192.0.2.7'], TXT: ['v=spf1 a mx a:v6.spf-hosts.example -all'] },
    'v6.spf-hosts.example': { AAAA: ['2001:db8::7'] },
  }),
  // exists asks for A records only (RFC 7208 5.7): a name with only AAAA is a void lookup there.
  ...good('spf-exists6.example', {
    'spf-exists6.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example exists:v6.spf-hosts.example -all'] },
  }),
  ...good('spf-many-mx.example', {
    'spf-many-mx.example': {
      MX: Array.from({ length: 11 }, (_, i) => ({ preference: i, exchange: `mx${i}.provider.example` })),
      TXT: ['v=spf1 mx -all'],
    },
  }),
  ...good('spf-zero.example', { 'spf-zero.example': { MX: mx, TXT: ['v=spf1 ip4:0.0.0.0/0 -all'] } }),
  ...good('spf-badinc.example', { 'spf-badinc.example': { MX: mx, TXT: ['v=spf1 include:bad-inner.example -all'] } }),
  ...good('spf-inc-redirect.example', {
    'spf-inc-redirect.example': { MX: mx, TXT: ['v=spf1 include:to-open.example -all'] },
  }),
  ...good('dkim-v-late.example', {
    'google._domainkey.dkim-v-late.example': { TXT: [`k=rsa; v=DKIM1; p=${key2048}`] },
  }),
  ...good('dkim-ed-sha1.example', {
    'google._domainkey.dkim-ed-sha1.example': {
      TXT: [`v=DKIM1; h=sha1; k=ed25519; p=${Buffer.alloc(32, 7).toString('base64')}`],
    },
  }),
  ...good('dkim-sha1.example', { 'google._domainkey.dkim-sha1.example': { TXT: [`v=DKIM1; h=sha1; p=${key2048}`] } }),
  ...good('dkim-s.example', { 'google._domainkey.dkim-s.example': { TXT: [`v=DKIM1; s=tlsrpt; p=${key2048}`] } }),
  ...good('dkim-v2.example', { 'google._domainkey.dkim-v2.example': { TXT: [`v=DKIM2; p=${key2048}`] } }),
  ...good('dkim-dsa.example', { 'google._domainkey.dkim-dsa.example': { TXT: [`v=DKIM1; k=dsa; p=${key2048}`] } }),
  ...good('dkim-ed.example', { 'google._domainkey.dkim-ed.example': { TXT: ['v=DKIM1; k=ed25519; p=AAAA'] } }),
  // Found by a review against the RFCs: an Ed25519 key alone, a quote pasted into p=, include= for include:, and a
  // -include of a record that passes everyone (its result for them is fail, not pass).
  ...good('dkim-ed-only.example', {
    'google._domainkey.dkim-ed-only.example': {
      TXT: [`v=DKIM1; k=ed25519; p=${Buffer.alloc(32, 7).toString('base64')}`],
    },
  }),
  ...good('dkim-twice.example', {
    'google._domainkey.dkim-twice.example': { TXT: [`v=DKIM1; k=rsa; p=; p=${key2048}`] },
  }),
  ...good('dkim-quoted.example', {
    'google._domainkey.dkim-quoted.example': {
      TXT: [`v=DKIM1; k=rsa; p=${key2048.slice(0, 100)}" "${key2048.slice(100)}`],
    },
  }),
  ...good('spf-include-eq.example', {
    'spf-include-eq.example': { MX: mx, TXT: ['v=spf1 include=_spf.provider.example ~all'] },
  }),
  ...good('spf-minus-include.example', {
    'spf-minus-include.example': { MX: mx, TXT: ['v=spf1 include:_spf.provider.example -include:open.example ~all'] },
  }),
  ...good('dkim-named-revoked.example', {
    's2024._domainkey.dkim-named-revoked.example': { TXT: ['v=DKIM1; k=rsa; p='] },
  }),
  ...good('dmarc-badsp.example', {
    '_dmarc.dmarc-badsp.example': { TXT: ['v=DMARC1; p=reject; sp=nonee; rua=mailto:d@dmarc-badsp.example'] },
  }),
  // A domain whose name servers never answer: the server answers every other name.
  'silent.example': { SILENT: true },
  // A common selector whose name servers never answer: a timeout there concerns that name only.
  ...good('silent-selector.example', { 'mail._domainkey.silent-selector.example': { SILENT: true } }),
  // A common selector the user did not name answers SERVFAIL: the key at google still passes.
  // Every selector's lookup fails: nothing is known about the keys.
  ...good(
    'dkim-servfail.example',
    Object.fromEntries(commonSelectors.map((s) => [`${s}._domainkey.dkim-servfail.example`, { SERVFAIL: true }])),
  ),
  ...good('flaky-selector.example', { 'selector1._domainkey.flaky-selector.example': { SERVFAIL: true } }),
  ...good('custom-selector.example', {
    'google._domainkey.custom-selector.example': {},
    's2024._domainkey.custom-selector.example': { TXT: [dkim] },
  }),
};

let dns: TestDns;
let sb: TestSandbox;
beforeAll(async () => (dns = await startTestDns(zone)));
afterAll(() => dns.close());
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

type Row = { domain: string; check: string; status: string; detail: string; fix?: string };
async function check(...args: string[]): Promise<{ code: number; rows: Row[]; stderr: string }> {
  const result = await run(['domains', 'check', ...args, '--resolver', dns.address, '--json'], { env: sb.env });
  return { code: result.code, rows: result.stdout ? (JSON.parse(result.stdout) as Row[]) : [], stderr: result.stderr };
}
// For the names that never answer: 1 s a try, not 2 (the others are answered at once by the server in this process).
const quickTimeout = ['--dns-timeout', '1'];
const statusOf = (rows: Row[], which: string) => rows.find((r) => r.check === which)!;

describe('domains check', () => {
  it('passes a domain with MX, one SPF record within its lookups, DMARC and a DKIM key (exit 0)', async () => {
    const { code, rows } = await check('good.example');
    expect(code).toBe(0);
    expect(rows.map((r) => [r.check, r.status, r.detail])).toEqual([
      ['MX', 'pass', '10 mx.provider.example'],
      ['SPF', 'pass', `${spf} (1 of 10 lookups)`],
      ['DMARC', 'pass', 'p=reject, reports to mailto:dmarc@good.example, alignment relaxed'],
      ['DKIM', 'pass', 'keys at google (RSA 2048)'],
    ]);
  });

  it.each([
    ['no-mx.example', 'MX', 'fail', 'no MX record: replies and bounces to the domain cannot be delivered'],
    [
      'web-only.example',
      'MX',
      'fail',
      'no MX record: mail to the domain goes to its address record (192.0.2.80, RFC 5321 5.1), seldom a server that takes mail: replies and bounces may be lost',
    ],
    [
      'dkim-ed-only.example',
      'DKIM',
      'warn',
      'keys at google (ed25519); only Ed25519 keys: receivers that do not verify Ed25519 (Microsoft among them) treat the mail as unsigned',
    ],
    ['dkim-twice.example', 'DKIM', 'fail', 'google: p= appears twice: receivers discard the record (RFC 6376 3.2)'],
    [
      'dkim-quoted.example',
      'DKIM',
      'fail',
      'google: p= holds "\\"", which is not base64: receivers cannot read the key',
    ],
    [
      'spf-include-eq.example',
      'SPF',
      'fail',
      'include=_spf.provider.example is read as an unknown modifier and ignored: the servers it names are not allowed',
    ],
    ['null-mx.example', 'MX', 'fail', 'a null MX (RFC 7505): the domain says it receives no mail, so replies bounce'],
    [
      'null-mx-mixed.example',
      'MX',
      'fail',
      'a null MX (RFC 7505) beside other MX records: a receiver may take the domain to receive no mail',
    ],
    ['two-spf.example', 'SPF', 'fail', '2 SPF records: receivers treat two as a permanent error (RFC 7208 3.2)'],
    [
      'two-spf-open.example',
      'SPF',
      'fail',
      '2 SPF records: receivers treat two as a permanent error (RFC 7208 3.2); one ends in +all: anyone may send as the domain',
    ],
    ['plus-all.example', 'SPF', 'fail', 'ends in +all: anyone may send as the domain'],
    ['no-all.example', 'SPF', 'fail', 'has no all mechanism: mail from any other server is neutral'],
    [
      'lookups.example',
      'SPF',
      'fail',
      'costs 12 DNS lookups through its includes; receivers stop at 10 (permanent error)',
    ],
    [
      'lookups22.example',
      'SPF',
      'fail',
      'costs more than 15 DNS lookups through its includes; receivers stop at 10 (permanent error)',
    ],
    ['dangling.example', 'SPF', 'fail', 'include:gone.example: gone.example has no SPF record'],
    [
      'spf-void.example',
      'SPF',
      'warn',
      'a:old-host.example finds no record: each costs a lookup and allows no one (more than 2 are a permanent error)',
    ],
    [
      'spf-exists6.example',
      'SPF',
      'warn',
      'exists:v6.spf-hosts.example finds no record: each costs a lookup and allows no one (more than 2 are a permanent error)',
    ],
    [
      'spf-voids.example',
      'SPF',
      'warn',
      'a:gone1.example, mx:gone2.example find no record: each costs a lookup and allows no one (more than 2 are a permanent error)',
    ],
    [
      'dkim-servfail.example',
      'DKIM',
      'fail',
      'the lookups of every selector failed (ESERVFAIL): whether a key is published is not known',
    ],
    [
      'dmarc-extno.example',
      'DMARC',
      'warn',
      'p=reject; in.reports.example has not said it takes reports for dmarc-extno.example (no "v=DMARC1" at dmarc-extno.example._report._dmarc.in.reports.example): receivers send it none',
    ],
    [
      'spf-nbsp.example',
      'SPF',
      'fail',
      '"include:_spf.provider.example\\u00a0~all" holds a character receivers do not read in a term (only ASCII, and plain spaces between terms): the record is a permanent error',
    ],
    [
      'spf-aservfail.example',
      'SPF',
      'warn',
      'the lookups of a:broken-host.example (ESERVFAIL) failed: whether they find a record is not known',
    ],
    ['spf-ptr.example', 'SPF', 'warn', 'uses ptr, which RFC 7208 5.5 says not to: slow, and some receivers skip it'],
    [
      'spf-voids3.example',
      'SPF',
      'fail',
      "exists:gone3.example (in sub.spf-voids.example's record), a:gone1.example, mx:gone2.example find no record: receivers stop after 2 such lookups (permanent error)",
    ],
    [
      'spf-many-mx.example',
      'SPF',
      'fail',
      'mx: spf-many-mx.example has 11 MX records; receivers look up at most 10 (permanent error)',
    ],
    ['no-dmarc.example', 'DMARC', 'fail', 'no DMARC record: Google and Yahoo refuse bulk mail without one'],
    [
      'dmarc-void.example',
      'DMARC',
      'fail',
      'no policy (p=): receivers act as if it said p=none, monitoring only (RFC 7489 6.6.3)',
    ],
    [
      'dmarc-none.example',
      'DMARC',
      'warn',
      'p=none; monitoring only: mail spoofing the domain is still delivered; no rua=mailto: address: nobody receives the aggregate reports',
    ],
    [
      'dmarc-strict.example',
      'DMARC',
      'warn',
      "p=quarantine; strict alignment (aspf=s): mail sent through a provider's own subdomain fails it",
    ],
    ['revoked.example', 'DKIM', 'fail', 'google: the key is revoked (empty p=)'],
    ['weak.example', 'DKIM', 'warn', 'keys at google (RSA 1024)'],
    ['weak512.example', 'DKIM', 'fail', 'google: an RSA key of 512 bits (under 1024)'],
    ['not-a-key.example', 'DKIM', 'fail', 'google: p= is not an RSA public key'],
    ['loop.example', 'SPF', 'fail', 'include:loop.example includes a record that includes it (a loop)'],
    ['servfail.example', 'DMARC', 'fail', 'the lookup of _dmarc.servfail.example failed: ESERVFAIL'],
    [
      'redirect-open.example',
      'SPF',
      'fail',
      'ends in +all (through redirect=, at open.example): anyone may send as the domain',
    ],
    [
      'redirect-bare.example',
      'SPF',
      'fail',
      'has no all mechanism (through redirect=, at ips.example): mail from any other server is neutral',
    ],
    // The redirect's own problem, not also "no all mechanism": there is no record whose all could be judged.
    ['redirect-gone.example', 'SPF', 'fail', 'redirect=gone.example: gone.example has no SPF record'],
    [
      'include-open.example',
      'SPF',
      'fail',
      'include:open.example: open.example passes every server, so anyone may send as the domain through it',
    ],
    [
      'upper-tags.example',
      'DKIM',
      'fail',
      'google: no p= tag (tag names are lower case, RFC 6376 3.2: P= is not read)',
    ],
    [
      'testing-key.example',
      'DKIM',
      'fail',
      'google: t=y, testing: receivers treat its mail as unsigned (RFC 6376 3.6.1)',
    ],
    ['weak1536.example', 'DKIM', 'warn', 'keys at google (RSA 1536)'],
    [
      'dmarc-lower.example',
      'DMARC',
      'fail',
      '_dmarc.dmarc-lower.example has a record receivers do not read as DMARC: "v=dmarc1; p=reject; rua=mailto:d@dmarc-lower.example" (v=DMARC1 exactly, in capitals and first, then tags separated by ";")',
    ],
    [
      'dmarc-nosemi.example',
      'DMARC',
      'fail',
      '_dmarc.dmarc-nosemi.example has a record receivers do not read as DMARC: "v=DMARC1 p=reject rua=mailto:d@dmarc-nosemi.example" (v=DMARC1 exactly, in capitals and first, then tags separated by ";")',
    ],
    ['dmarc-typo.example', 'DMARC', 'fail', 'policy p=rejct is not none, quarantine or reject'],
    [
      'dmarc-twice.example',
      'DMARC',
      'fail',
      "p= appears twice: the record is invalid, and receivers may discard it or read either value (RFC 7489 6.4 writes DMARC in DKIM's tag syntax, RFC 6376 3.2)",
    ],
    [
      'dmarc-space.example',
      'DMARC',
      'fail',
      '_dmarc.dmarc-space.example has a record receivers do not read as DMARC: " v=DMARC1; p=reject; rua=mailto:d@dmarc-space.example" (v=DMARC1 exactly, in capitals and first, then tags separated by ";")',
    ],
    [
      'sub.dmarc-badp.example',
      'DMARC',
      'fail',
      'policy p=rejct is not none, quarantine or reject: receivers read the whole record as p=none (RFC 7489 6.6.3)',
    ],
    [
      'spf-typo.example',
      'SPF',
      'fail',
      '"inclde:_spf.provider.example" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-cidr.example',
      'SPF',
      'fail',
      '"ip4:192.0.2.1/33" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    ['spf-redirects.example', 'SPF', 'fail', 'redirect= appears more than once: a permanent error (RFC 7208 6)'],
    [
      'spf-a0.example',
      'SPF',
      'fail',
      'passes every address of a family (a /0 prefix: ip4:0.0.0.0/0, ip6:::/0, a/0): anyone may send as the domain',
    ],
    [
      'spf-redirect0.example',
      'SPF',
      'fail',
      'passes every address of a family (a /0 prefix: ip4:0.0.0.0/0, ip6:::/0, a/0): anyone may send as the domain',
    ],
    [
      'spf-localhost.example',
      'SPF',
      'fail',
      '"a:localhost" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-exists-cidr.example',
      'SPF',
      'fail',
      '"exists:e.provider.example/24" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-zone-id.example',
      'SPF',
      'fail',
      '"ip6:fe80::1%eth0" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-empty-redirect.example',
      'SPF',
      'fail',
      '"redirect=" names no domain: the record is a permanent error (RFC 7208 6)',
    ],
    [
      'spf-macro0.example',
      'SPF',
      'fail',
      '"exists:%{d0}.x.example" has a macro receivers do not expand: the record is a permanent error (RFC 7208 7.1)',
    ],
    [
      'spf-cidr0.example',
      'SPF',
      'fail',
      '"ip4:192.0.2.0/024" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-empty-a.example',
      'SPF',
      'fail',
      '"a:" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-badmacro.example',
      'SPF',
      'fail',
      '"exists:%{t}.spf.example" has a macro receivers do not expand: the record is a permanent error (RFC 7208 7.1)',
    ],
    [
      'spf-space.example',
      'SPF',
      'fail',
      'the SPF record begins with a space: receivers discard it (RFC 7208 4.5), so the domain has none they read',
    ],
    ['dmarc-pct.example', 'DMARC', 'warn', 'p=reject; pct=0: the policy applies to 0% of the mail that fails it'],
    [
      'sub.dsp.example',
      'DMARC',
      'warn',
      'sp=none (the record of dsp.example); monitoring only: mail spoofing the domain is still delivered',
    ],
    ['sub.dptwo.example', 'DMARC', 'fail', '2 DMARC records: receivers ignore them all (RFC 7489 6.6.3)'],
    [
      'spf-zero.example',
      'SPF',
      'fail',
      'passes every address of a family (a /0 prefix: ip4:0.0.0.0/0, ip6:::/0, a/0): anyone may send as the domain',
    ],
    [
      'spf-badinc.example',
      'SPF',
      'fail',
      'include:bad-inner.example: bad-inner.example\'s record: "ip4:300.1.2.3" is not a term receivers read: the record is a permanent error (RFC 7208 4.6)',
    ],
    [
      'spf-inc-redirect.example',
      'SPF',
      'fail',
      'include:to-open.example: to-open.example passes every server, so anyone may send as the domain through it',
    ],
    [
      'dkim-sha1.example',
      'DKIM',
      'fail',
      'google: h=sha1 allows no sha256: signatures made with rsa-sha256 fail (RFC 8301)',
    ],
    [
      'dkim-ed-sha1.example',
      'DKIM',
      'fail',
      'google: h=sha1 allows no sha256: signatures made with ed25519-sha256 fail (RFC 8301)',
    ],
    [
      'dkim-v-late.example',
      'DKIM',
      'fail',
      'google: v=DKIM1 is not the first tag, where it must be: receivers may discard the record (RFC 6376 3.6.1)',
    ],
    [
      'dkim-s.example',
      'DKIM',
      'fail',
      'google: s=tlsrpt does not include email: receivers do not use the key for mail',
    ],
    ['dkim-v2.example', 'DKIM', 'fail', 'google: v=DKIM2, not DKIM1: receivers discard the record (RFC 6376 3.6.1)'],
    ['dkim-dsa.example', 'DKIM', 'fail', 'google: k=dsa, a key type receivers do not know: they ignore the key'],
    ['dkim-ed.example', 'DKIM', 'fail', 'google: p= is not an Ed25519 public key (32 bytes)'],
    [
      'dmarc-badsp.example',
      'DMARC',
      'fail',
      'policy sp=nonee is not none, quarantine or reject: receivers read the whole record as p=none (RFC 7489 6.6.3)',
    ],
  ])('%s: %s %s', async (domain, which, status, detail) => {
    const { code, rows } = await check(domain);
    expect(code).toBe(status === 'fail' ? 3 : 0);
    expect(statusOf(rows, which)).toMatchObject({ status, detail });
    expect(statusOf(rows, which).fix).toBeTruthy();
    // Only the broken record fails.
    expect(rows.filter((r) => r.status !== 'pass').map((r) => r.check)).toEqual([which]);
  });

  it('--csv has each check with its status, detail, fix and record', async () => {
    const result = await run(['domains', 'check', 'dmarc-nosemi.example', '--resolver', dns.address, '--csv'], {
      env: sb.env,
    });
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe('domain,check,status,detail,fix,record');
    const dmarcLine = lines.find((line) => line.includes(',DMARC,'))!;
    expect(dmarcLine.startsWith('dmarc-nosemi.example,DMARC,fail,')).toBe(true);
    expect(
      dmarcLine.endsWith(
        ',"replace it with ""v=DMARC1; p=reject; rua=mailto:d@dmarc-nosemi.example""",v=DMARC1 p=reject rua=mailto:d@dmarc-nosemi.example',
      ),
    ).toBe(true);
  });

  it('a domain that does not exist is said once, not as a record to publish per check', async () => {
    const { code, rows } = await check('nowhere.example');
    expect(code).toBe(3);
    expect(rows).toEqual([
      {
        domain: 'nowhere.example',
        check: 'DNS',
        status: 'fail',
        detail: 'nowhere.example does not exist in DNS (NXDOMAIN)',
        fix: 'check its spelling, or register it and publish its MX, SPF, DKIM and DMARC records',
      },
    ]);
  });

  it('DMARC reports to another domain that takes them pass (RFC 7489 7.1), or whose DNS fails; to its own, no lookup', async () => {
    const { code, rows } = await check('dmarc-ext.example', 'dmarc-extfail.example');
    expect(code).toBe(0);
    expect(rows.filter((r) => r.check === 'DMARC').map((r) => [r.domain, r.status])).toEqual([
      ['dmarc-ext.example', 'pass'],
      ['dmarc-extfail.example', 'pass'],
    ]);
    const authorisations = dns.queries.filter((q) => q.includes('._report._dmarc.'));
    expect(authorisations).toContain('TXT dmarc-ext.example._report._dmarc.in.reports.example');
    expect(authorisations.filter((q) => q.endsWith('.dmarc-ext.example'))).toEqual([]);
  });

  it('an international domain is looked up as DNS holds it (xn--), and its own report address is its own', async () => {
    const { code, rows } = await check('Bücher.example');
    expect(code).toBe(0);
    expect(rows.map((r) => [r.domain, r.check, r.status, ...(r.check === 'DMARC' ? [r.detail] : [])])).toEqual([
      ['xn--bcher-kva.example', 'MX', 'pass'],
      ['xn--bcher-kva.example', 'SPF', 'pass'],
      [
        'xn--bcher-kva.example',
        'DMARC',
        'pass',
        'p=reject, reports to mailto:d@bücher.example,mailto:e@xn--bcher-kva.example, alignment relaxed',
      ],
      ['xn--bcher-kva.example', 'DKIM', 'pass'],
    ]);
    expect(dns.queries.filter((q) => q.includes('xn--bcher-kva.example._report'))).toEqual([]);
  });

  it('SPF a, mx and a: terms whose names have records are no void lookups (an AAAA record alone will do)', async () => {
    const { code, rows } = await check('spf-hosts.example');
    expect(code).toBe(0);
    expect(statusOf(rows, 'SPF')).toMatchObject({
      status: 'pass',
      detail: 'v=spf1 a mx a:v6.spf-hosts.example -all (3 of 10 lookups)',
    });
    expect(dns.queries).toEqual(expect.arrayContaining(['A spf-hosts.example', 'AAAA v6.spf-hosts.example']));
  });

  it('a domain whose name servers never answer, checked first, fails on its own: the next is checked (exit 3)', async () => {
    const { code, rows } = await check('silent.example', 'good.example', ...quickTimeout);
    expect(code).toBe(3);
    expect(rows[0]).toEqual({
      domain: 'silent.example',
      check: 'DNS',
      status: 'fail',
      detail: 'the name servers of silent.example did not answer (timed out); nothing else was looked up',
      fix: 'check the NS records of silent.example at its registrar, and that those name servers answer',
    });
    expect(rows.slice(1).map((r) => [r.domain, r.check, r.status])).toEqual(
      ['MX', 'SPF', 'DMARC', 'DKIM'].map((c) => ['good.example', c, 'pass']),
    );
    expect(dns.queries.filter((q) => q.includes('silent.example') && !q.startsWith('MX '))).toEqual([]);
  });

  it('rewrites a record meant as DMARC with its own policy and addresses, never a weaker one', async () => {
    const { rows } = await check('dmarc-nosemi.example', 'dmarc-lower.example', 'dmarc-commas.example');
    expect(rows.filter((r) => r.check === 'DMARC').map((r) => r.fix)).toEqual([
      'replace it with "v=DMARC1; p=reject; rua=mailto:d@dmarc-nosemi.example"',
      'replace it with "v=DMARC1; p=reject; rua=mailto:d@dmarc-lower.example"',
      'replace it with "v=DMARC1; p=reject; rua=mailto:a@dmarc-commas.example,mailto:b@dmarc-commas.example"',
    ]);
    // A macro's / is no CIDR: a record with one is read, and passes.
    expect(statusOf((await check('spf-macro.example')).rows, 'SPF').status).toBe('pass');
  });

  it('says which record to publish: SPF, DMARC and DKIM missing', async () => {
    const { rows } = await check('no-dkim.example', 'no-dmarc.example');
    expect(rows.find((r) => r.domain === 'no-dmarc.example' && r.check === 'DMARC')!.fix).toBe(
      'publish _dmarc.no-dmarc.example. TXT "v=DMARC1; p=none; rua=mailto:dmarc-reports@no-dmarc.example" (then p=quarantine once the reports are clean)',
    );
    expect(rows.find((r) => r.domain === 'no-dkim.example' && r.check === 'DKIM')).toMatchObject({
      status: 'fail',
      detail: 'no DKIM key at the selectors google, selector1, selector2, k1, k2, s1, s2, default, dkim, mail',
    });
  });

  it('counts an include reached by two paths twice, reads a bare PKCS#1 key, and takes a parent DMARC record', async () => {
    const { code, rows } = await check(
      'diamond.example',
      'pkcs1.example',
      'mail.org.example',
      'flaky-selector.example',
    );
    expect(code).toBe(0);
    const of = (domain: string, which: string) => rows.find((r) => r.domain === domain && r.check === which)!;
    expect(of('diamond.example', 'SPF').detail).toMatch(/\(4 of 10 lookups\)$/);
    expect(of('pkcs1.example', 'DKIM').detail).toBe('keys at google (RSA 3072)');
    expect(of('flaky-selector.example', 'DKIM')).toMatchObject({ status: 'pass', detail: 'keys at google (RSA 2048)' });
    expect(of('mail.org.example', 'DMARC')).toMatchObject({
      status: 'pass',
      detail: 'sp=reject, reports to mailto:d@org.example, alignment relaxed (the record of org.example)',
    });
  });

  it('says the change to make where the record is: in place, at the parent, with the key sizes found', async () => {
    const { rows } = await check(
      'dmarc-typo.example',
      'dmarc-twice.example',
      'sub.dsp.example',
      'sub.dptwo.example',
      'weak1536.example',
      'weak512.example',
    );
    const fix = (domain: string, which: string) => rows.find((r) => r.domain === domain && r.check === which)!.fix;
    // A second record beside the broken one would void both: it is changed in place.
    expect(fix('dmarc-typo.example', 'DMARC')).toBe(
      'in the record at _dmarc.dmarc-typo.example, write p=quarantine or p=reject (or p=none to monitor) instead of p=rejct',
    );
    expect(fix('sub.dsp.example', 'DMARC')).toBe(
      'move to sp=quarantine in the record at _dmarc.dsp.example once the aggregate reports show only your own senders',
    );
    expect(fix('sub.dptwo.example', 'DMARC')).toBe('keep one TXT record at _dmarc.dptwo.example');
    expect(fix('dmarc-twice.example', 'DMARC')).toBe('keep one p= in the record at _dmarc.dmarc-twice.example');
    expect(fix('weak1536.example', 'DKIM')).toBe(
      'rotate the 1536-bit keys to 2048 bits (Google and Yahoo expect 2048)',
    );
    // The one selector with a key is named, not "<selector>".
    expect(fix('weak512.example', 'DKIM')).toBe(
      'publish a current 2048-bit key from your mail provider at google._domainkey.weak512.example',
    );
  });

  it('a common selector whose name servers never answer does not stop the run: the key at google passes', async () => {
    const { code, rows } = await check('silent-selector.example', 'good.example', ...quickTimeout);
    expect(code).toBe(0);
    expect(rows.filter((r) => r.check === 'DKIM').map((r) => [r.domain, r.status])).toEqual([
      ['silent-selector.example', 'pass'],
      ['good.example', 'pass'],
    ]);
  });

  it('fails a revoked key at a selector the user named, and says to publish a new one there (not to remove it)', async () => {
    const { code, rows } = await check('dkim-named-revoked.example', '--selector', 's2024');
    expect(code).toBe(3);
    expect(statusOf(rows, 'DKIM')).toMatchObject({
      status: 'fail',
      detail: 'keys at google (RSA 2048); s2024: the key is revoked (empty p=)',
      fix: 'publish a current 2048-bit key from your mail provider at s2024._domainkey.dkim-named-revoked.example',
    });
  });

  it('names the include to mend in its fix: a record may have several', async () => {
    const { rows } = await check('dangling.example');
    expect(statusOf(rows, 'SPF').fix).toBe('fix or remove include:gone.example in the record');
  });

  it('ignores the terms after all (RFC 7208 5.1), and a modifier whose name begins with ptr costs no lookup', async () => {
    const { code, rows } = await check('spf-after-all.example', 'spf-ptrx.example');
    expect(code).toBe(0);
    expect(rows.filter((r) => r.check === 'SPF').map((r) => [r.status, r.detail])).toEqual([
      ['pass', 'v=spf1 ip4:192.0.2.1 -all include:gone.example a:n1.gone.example (0 of 10 lookups)'],
      ['pass', 'v=spf1 ptrx=foo -all (0 of 10 lookups)'],
    ]);
  });

  it('reads macros receivers expand (%{ir}, %{l1r+-}, %{d}) and the fix of a record that begins with a space', async () => {
    const macros = statusOf((await check('spf-macro-ok.example')).rows, 'SPF');
    expect(macros.status).toBe('pass');
    expect(statusOf((await check('spf-space.example')).rows, 'SPF')).toMatchObject({
      fix: 'remove the space before v=spf1 in the TXT record at spf-space.example',
      record: ' v=spf1 include:_spf.provider.example -all',
    });
  });

  it('passes a -include of a record that passes everyone: its result for them is fail (RFC 7208 5.2)', async () => {
    const { code, rows } = await check('spf-minus-include.example');
    expect(code).toBe(0);
    expect(statusOf(rows, 'SPF')).toMatchObject({
      status: 'pass',
      detail: 'v=spf1 include:_spf.provider.example -include:open.example ~all (2 of 10 lookups)',
    });
  });

  it('looks up the selectors given with --selector', async () => {
    expect(statusOf((await check('custom-selector.example')).rows, 'DKIM').status).toBe('fail');
    const { code, rows } = await check('custom-selector.example', '--selector', 's2024');
    expect(code).toBe(0);
    expect(statusOf(rows, 'DKIM').detail).toBe('keys at s2024 (RSA 2048)');
  });

  it('fails a selector the user named that holds no key, though a common one does; refuses a selector that is not one', async () => {
    const { code, rows } = await check('good.example', '--selector', 'nope');
    expect(code).toBe(3);
    expect(statusOf(rows, 'DKIM')).toMatchObject({
      status: 'fail',
      detail: 'no DKIM key at the selector you named: nope (keys at google)',
      fix: "publish your mail provider's key at nope._domainkey.good.example; or check the selector name in a message header (DKIM-Signature: s=)",
    });
    const dots = await check('good.example', '--selector', 'a..b');
    expect([dots.code, dots.stderr]).toEqual([
      2,
      'error: --selector a..b: a selector is DNS labels (letters, digits, - and _) joined by single dots\n' +
        "hint: A message's DKIM-Signature header names it: s=s2024 is --selector s2024 (every domain), d=acme.example " +
        'with it --selector s2024._domainkey.acme.example (that domain only).\n',
    ]);
    const noDomain = await check('good.example', '--selector', 's2024._domainkey');
    expect(noDomain.stderr).toContain(
      "error: --selector s2024._domainkey: give the selector (s2024), or its record's name with the domain\n",
    );
  });

  it("a selector named by its record is one domain's: the others are not failed for it", async () => {
    const both = await check('custom-selector.example', 'good.example', '--selector', 's2024');
    expect(both.code).toBe(3); // good.example has no key at s2024
    const own = await check(
      'custom-selector.example',
      'good.example',
      '--selector',
      'S2024._domainkey.Custom-Selector.example.',
    );
    expect(own.code).toBe(0);
    expect(own.rows.filter((r) => r.check === 'DKIM').map((r) => [r.domain, r.status, r.detail])).toEqual([
      ['custom-selector.example', 'pass', 'keys at S2024 (RSA 2048)'], // as the user wrote it: DNS ignores case
      ['good.example', 'pass', 'keys at google (RSA 2048)'],
    ]);
    const elsewhere = await check('good.example', '--selector', 's2024._domainkey.custom-selector.example');
    expect([elsewhere.code, elsewhere.stderr]).toEqual([
      2,
      'error: --selector s2024._domainkey.custom-selector.example: custom-selector.example is not among the domains checked\n' +
        'hint: Check it too: outreach domains check good.example custom-selector.example\n',
    ]);
  });

  it('a resolver that stops answering midway: what it answered is reported, the rest not checked; exit 1', async () => {
    const dying = await startTestDns({
      '_spf.provider.example': zone['_spf.provider.example']!,
      ...good('first.example'),
      ...good('second.example', { 'second.example': { STOP: true } }),
    });
    try {
      const result = await run(
        ['domains', 'check', 'first.example', 'second.example', 'third.example', '--resolver', dying.address, '--json'],
        { env: sb.env },
      );
      expect(result.code).toBe(1);
      const rows = JSON.parse(result.stdout) as Row[];
      expect(rows.filter((r) => r.domain === 'first.example').map((r) => r.status)).toEqual([
        'pass',
        'pass',
        'pass',
        'pass',
      ]);
      expect(rows.filter((r) => r.domain !== 'first.example')).toEqual([
        expect.objectContaining({ domain: 'second.example', check: 'DNS', status: 'fail' }),
        expect.objectContaining({ domain: 'third.example', check: 'DNS', status: 'fail' }),
      ]);
      expect(rows[4]!.detail).toMatch(/^not checked: the DNS server stopped answering \(\w+ at second\.example\)$/);
      expect(result.stderr).toContain(
        `error: the DNS server at ${dying.address} stopped answering: 2 of 3 not checked or failing\n`,
      );
    } finally {
      await dying.close();
    }
  });

  it("without a domain checks the account's active sending domains; a table and what to fix on a terminal", async () => {
    const table = await run(['domains', 'check', '--resolver', dns.address], {
      env: sb.env,
      stdoutIsTTY: true,
      stderrIsTTY: true,
      columns: 200,
    });
    expect(table.code).toBe(3);
    expect(stripVTControlCharacters(table.stdout).split('\n')[0]).toMatch(/^DOMAIN\s+CHECK\s+STATUS\s+DETAIL\s*$/);
    expect(table.stdout).toContain('new-launch.co');
    expect(table.stdout).toContain('try-outreach.com');
    expect(table.stdout).not.toContain('old-brand.io'); // deleted
    expect(table.stderr).toContain(
      'To fix:\n  try-outreach.com SPF: publish try-outreach.com. TXT "v=spf1 include:<your mail provider\'s SPF domain> ~all" (Google Workspace: include:_spf.google.com)\n',
    );
    expect(table.stderr).toContain('error: 1 of 2 domains fails a check: try-outreach.com\n');
  });

  it('a DNS server that takes questions and never answers: two tries of --dns-timeout, said so, exit 1', async () => {
    const mute = createSocket('udp4'); // receives every question, answers none
    await new Promise<void>((resolve) => mute.bind(0, '127.0.0.1', resolve));
    try {
      const address = `127.0.0.1:${mute.address().port}`;
      const result = await run(['domains', 'check', 'good.example', '--resolver', address, '--dns-timeout', '0.25'], {
        env: sb.env,
      });
      expect([result.code, result.stderr]).toEqual([
        1,
        `error: DNS lookup of good.example failed at ${address}: no answer in 2 tries of 0.25 s (ETIMEOUT)\n` +
          `hint: Is a DNS server answering at ${address}?\n`,
      ]);
    } finally {
      mute.close();
    }
  });

  it('--resolver takes a host name the system finds (localhost, from the hosts file): that server is asked', async () => {
    const port = dns.address.split(':')[1]!;
    const result = await run(['domains', 'check', 'good.example', '--resolver', `localhost:${port}`, '--json'], {
      env: sb.env,
    });
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Row[]).map((r) => r.status)).toEqual(['pass', 'pass', 'pass', 'pass']);
  });

  it('resolverAddress: a name is asked of the system, its IPv4 address used; one it cannot find is a usage error', async () => {
    const found =
      (...addresses: string[]) =>
      async () =>
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    expect(await resolverAddress('dns.internal:5353', '--resolver ', found('10.0.0.53'))).toBe('10.0.0.53:5353');
    expect(await resolverAddress('dns.internal', '--resolver ', found('fd00::53'))).toBe('[fd00::53]:53');
    // localhost as a hosts file may give it, ::1 first: its IPv4 address is asked.
    expect(await resolverAddress('localhost:5353', '--resolver ', found('::1', '127.0.0.1'))).toBe('127.0.0.1:5353');
    // A final dot is not sent to the lookup (a hosts file has no "localhost.").
    const asked: string[] = [];
    const recording = async (host: string) => (asked.push(host), [{ address: '127.0.0.1', family: 4 }]);
    await resolverAddress('localhost.:53', '--resolver ', recording);
    expect(asked).toEqual(['localhost']);
    // An address is not looked up; nor are names of numbers, which the system would read as addresses.
    const never = async (): Promise<Array<{ address: string; family: number }>> => {
      throw new Error('looked up');
    };
    expect(await resolverAddress('[::1]:53', '--resolver ', never)).toBe('[::1]:53');
    for (const text of ['127.1:53', '0x7f000001', '999'])
      await expect(resolverAddress(text, '--resolver ', never)).rejects.toThrow('give an IP address or a host name');
    await expect(resolverAddress('fe80::1%eth0', '--resolver ', never)).rejects.toThrow(
      '--resolver fe80::1%eth0: an address with a zone (%) cannot be asked',
    );
    const missing = async (): Promise<Array<{ address: string; family: number }>> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    };
    const refused = resolverAddress('nowhere.invalid:53', '--resolver ', missing);
    await expect(refused).rejects.toThrow(
      '--resolver nowhere.invalid:53: the system could not find nowhere.invalid (ENOTFOUND)',
    );
    await expect(refused).rejects.toBeInstanceOf(UsageError);
  });

  it('a DNS server that does not answer is exit 1 naming it; a resolver that is not HOST:PORT is exit 2', async () => {
    const port = new URL(await refusingUrl()).port;
    const dead = await run(['domains', 'check', 'good.example', '--resolver', `127.0.0.1:${port}`], { env: sb.env });
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain(`error: DNS lookup of good.example failed at 127.0.0.1:${port}: ECONNREFUSED`);
    const notDomain = await run(['domains', 'check', 'good.example', 'not a domain'], { env: sb.env });
    expect([notDomain.code, notDomain.stderr]).toEqual([
      2,
      'error: invalid domain "not a domain": " " is not a letter, digit, hyphen or dot\n' +
        'hint: Give each domain as a bare name: acme.com (no scheme, no path), or none to check every sending domain.\n',
    ]);
    const slow = await run(['domains', 'check', 'good.example', '--dns-timeout', '6'], { env: sb.env });
    expect([slow.code, slow.stderr.split('\n')[0]]).toEqual([
      2,
      'error: --dns-timeout must be at most 5 seconds, not "6"',
    ]);
    const empty = await run(['domains', 'check', ' '], { env: sb.env });
    expect(empty.stderr).toContain('error: DOMAIN: empty; give a domain name\n');
    // (Names that are no host names: a name that is one would be looked up by the system, off this machine.)
    const bad = await run(['domains', 'check', 'good.example', '--resolver', 'dns_google:53'], { env: sb.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'error: --resolver dns_google:53: give an IP address or a host name, and a port (127.0.0.1:5353, [::1]:53, localhost:5353)',
    );
    const noResolver = await run(['domains', 'check', 'good.example', '--resolver', ''], { env: sb.env });
    expect([noResolver.code, noResolver.stderr]).toEqual([
      2,
      'error: --resolver: empty; give the DNS server as HOST:PORT (127.0.0.1:5353, [::1]:53, localhost:5353)\n' +
        'hint: Leave --resolver out to ask the system resolver.\n',
    ]);
    const fromEnv = await run(['domains', 'check', 'good.example'], {
      env: { ...sb.env, OUTREACH_RESOLVER: 'bo gus' },
    });
    expect(fromEnv.stderr).toContain('error: OUTREACH_RESOLVER=bo gus: give an IP address or a host name, and a port');
  });
});
