// outreach domains buy through the real CLI: checked before sending, confirmed, dry run, never replayed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-buy-');
});
afterEach(() => sb.close());

const owner = [
  '--owner-first',
  'Ann',
  '--owner-last',
  'Lee',
  '--company',
  'Acme',
  '--address',
  '1 Main St',
  '--zipcode',
  '94105',
  '--country',
  'US',
  '--phone',
  '+14155550100',
];
const one = [
  '--domain',
  'acme-mail.com',
  '--mailbox',
  'alice@acme-mail.com:Alice:Smith',
  '--provider',
  'google',
  ...owner,
];
const buy = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['domains', 'buy', ...argv], { env: sb.env, cwd: dir, ...extra });
const purchases = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/domain');

/** The owner of a YAML order, as its lines. */
const yamlOwner = [
  'domainOwnerFirstname: Ann',
  'domainOwnerLastname: Lee',
  'companyName: Acme',
  'address: 1 Main St',
  'country: US',
  'zipcode: "94105"',
];

describe('domains buy', () => {
  it('shows the order, places it with --yes, and the domain provisions', async () => {
    const result = await buy([...one, '--redirect-url', 'acme.com', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'Order: 1 domain(s), 1 mailbox(es), Google, plan quarterly\n' +
        '  acme-mail.com (redirects to acme.com): alice@acme-mail.com\n' +
        'Provisioning runs at the service. Follow it with: outreach domains list --wait\n',
    );
    expect(result.stdout).toMatch(/^order\t\w+\n$/);
    const bought = state(sb).domains.find((d) => d.name === 'acme-mail.com')!;
    expect(bought).toMatchObject({
      status: 'inProgress',
      mailboxes: [{ email: 'alice@acme-mail.com', firstname: 'Alice' }],
    });
    const watched = await run(['domains', 'list', '--search', 'acme-mail', '--wait'], { env: sb.env });
    expect(watched.stdout).toMatch(/\tacme-mail\.com\tactive\talice@acme-mail\.com\n$/);
  });

  it('--wait exits 3 when a domain it watched ends failed', async () => {
    const argv = one.map((a) => a.replace('acme-mail.com', 'fail-mail.com'));
    expect((await buy([...argv, '--yes'])).code).toBe(0);
    const watched = await run(['domains', 'list', '--search', 'mail.com', '--wait'], { env: sb.env });
    expect(watched.code).toBe(3);
    expect(watched.stdout).toMatch(/\tfail-mail\.com\tfailed\t/);
    expect(watched.stderr).toBe(
      'error: 1 domain(s) failed: fail-mail.com\n' +
        'hint: The service did not set them up; see why in the web app, then buy them again with `outreach domains buy`.\n',
    );
  });

  it('--mailbox-picture uploads the picture and gives every mailbox its id', async () => {
    writeFileSync(
      join(dir, 'face.png'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]),
    );
    const result = await buy([...one, '--mailbox', 'bob@acme-mail.com', '--mailbox-picture', 'face.png', '--yes']);
    expect(result.code).toBe(0);
    const boxes = state(sb).domains.find((d) => d.name === 'acme-mail.com')!.mailboxes;
    expect(boxes.map((b) => b.email)).toEqual(['alice@acme-mail.com', 'bob@acme-mail.com']);
    expect(new Set(boxes.map((b) => b.profilePicId)).size).toBe(1);
    expect(boxes[0]!.profilePicId).toBeGreaterThan(0);
    expect(boxes[1]!.lastname).toBe('Lee'); // the owner's, when the mailbox gives none
  });

  it('--dry-run prints the exact body and sends nothing', async () => {
    const result = await buy([...one, '--dry-run']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      domainOwnerFirstname: 'Ann',
      domainOwnerLastname: 'Lee',
      companyName: 'Acme',
      address: '1 Main St',
      country: 'US',
      zipcode: '94105',
      phoneNumber: '+14155550100',
      emailServiceProvider: 'Google',
      domains: [
        {
          name: 'acme-mail.com',
          mailboxes: [{ email: 'alice@acme-mail.com', firstname: 'Alice', lastname: 'Smith', profilePicId: 0 }],
        },
      ],
    });
    expect(purchases()).toEqual([]);
  });

  it.each([
    [['--phone', '4155550100'], 'error: order: order.phoneNumber: must be E.164, like +14155550100'],
    [['--country', 'USA'], 'error: order: order.country: must be an ISO 3166 alpha-2 code like US'],
    [
      ['--redirect-url', 'https://acme.com'],
      'error: order: redirect of acme-mail.com: "https://acme.com" must be a bare domain like acme.com',
    ],
    [['--mailbox', 'bob@other.com'], 'error: order: mailbox bob@other.com is not on acme-mail.com'],
    [
      ['--owner-first', 'x'.repeat(51)],
      'error: order: order.domainOwnerFirstname: Too big: expected string to have <=50 characters',
    ],
  ])('checks %j before sending (exit 2)', async (change, message) => {
    const argv = [...one];
    const at = argv.indexOf(change[0]!);
    if (at >= 0) argv[at + 1] = change[1]!;
    else argv.push(...change);
    const result = await buy([...argv, '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(message);
    expect(purchases()).toEqual([]);
  });

  it('names the missing flags when it cannot ask', async () => {
    const result = await buy([
      '--domain',
      'x-mail.com',
      '--mailbox',
      'a@x-mail.com',
      '--provider',
      'google',
      '--company',
      'Acme',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(
      'error: missing: --owner-first, --owner-last, --address, --country, --zipcode, --phone',
    );
  });

  it('fills in a YAML order what the flags fill in (profilePicId 0), and names a missing field in words', async () => {
    const order = [
      ...yamlOwner,
      'emailServiceProvider: Google',
      'domains:',
      '  - name: pic-mail.com',
      '    mailboxes: [{email: a@pic-mail.com, firstname: A, lastname: B}]',
    ];
    writeFileSync(join(dir, 'order.yaml'), [...order, 'phoneNumber: "+14155550100"'].join('\n'));
    const dry = await buy(['--file', 'order.yaml', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout).domains[0].mailboxes[0].profilePicId).toBe(0);
    writeFileSync(join(dir, 'order.yaml'), order.join('\n'));
    const missing = await buy(['--file', 'order.yaml', '--dry-run']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split('\n')[0]).toBe('error: order.yaml: order.phoneNumber: required (text)');
  });

  it('reads a YAML order with several domains', async () => {
    writeFileSync(
      join(dir, 'order.yaml'),
      [
        ...yamlOwner,
        'phoneNumber: "+14155550100"',
        'emailServiceProvider: Microsoft',
        'domains:',
        '  - name: one-mail.com',
        '    mailboxes: [{email: a@one-mail.com, firstname: A, lastname: B, profilePicId: 0}]',
        '  - name: two-mail.com',
        '    mailboxes: [{email: c@two-mail.com, firstname: C, lastname: D, profilePicId: 0}]',
      ].join('\n'),
    );
    const result = await buy(['--file', 'order.yaml', '--yes']);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe('Order: 2 domain(s), 2 mailbox(es), Microsoft, plan quarterly');
    expect(state(sb).domains.filter((d) => d.name.endsWith('-mail.com'))).toHaveLength(2);
  });

  it('says nothing but the order under --quiet', async () => {
    const result = await buy([...one, '--yes', '--quiet']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^order\t\w+\n$/);
  });

  it('asks on a terminal for what the flags leave out, then for confirmation', async () => {
    const answers = [
      'ask-mail.com',
      'Lee',
      'bo@ask-mail.com:Bo:Lee',
      'google',
      'Ann',
      'Acme',
      '1 Main St',
      'US',
      '94105',
      '+14155550100',
      true,
    ];
    const result = await buy([], { answers, stdinIsTTY: true, stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('? Domain to buy ask-mail.com\n');
    expect(result.stderr).toContain(
      'Order: 1 domain(s), 1 mailbox(es), Google, plan quarterly\n  ask-mail.com: bo@ask-mail.com\n',
    );
    expect(state(sb).domains.some((d) => d.name === 'ask-mail.com')).toBe(true);
  });

  it('asks before buying, and refuses without --yes when it cannot ask', async () => {
    const refused = await buy(one);
    expect(refused.code).toBe(2);
    expect(refused.stderr.split('\n')[2]).toBe('error: refusing to buy without --yes (no terminal to ask on)');
    const declined = await buy(one, { answers: [false], stdinIsTTY: true, stderrIsTTY: true });
    expect(declined.code).toBe(0);
    expect(purchases()).toEqual([]);
  });

  it('never sends a purchase twice when its answer is lost, and says what to check', async () => {
    const proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
      method === 'POST' && path === '/v1/domain' ? 'reset-after' : undefined,
    );
    try {
      const result = await run(['domains', 'buy', ...one, '--yes'], {
        env: { OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: testKey },
        cwd: dir,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: the purchase may have reached the service, but its answer was lost');
      expect(result.stderr).toContain(
        'hint: It is not sent again automatically. Check `outreach domains list` before trying again.',
      );
      expect(purchases()).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
