// dnc commands through the real CLI against an in-process sandbox.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cutJournal } from '../helpers/journal.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { classifyDncValue, listValueKey } from '../../src/io/dnc-values.js';
import { dncItemsTable } from '../../src/sandbox/resources/dnc/tables.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-dnc-');
});
afterEach(() => sb.close());

const dnc = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['dnc', ...argv], { env: sb.env, cwd: dir, ...extra });
const values = (list = 1) => state(sb).dncLists[list]!.items.map((i) => i.value);
const adds = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/dnc');

describe('value normalising', () => {
  it.each([
    ['  Legal@BigCorp.COM ', 'legal@bigcorp.com', 'email'],
    ['https://www.Rival.io/pricing?x=1', 'rival.io', 'domain'],
    ['http://sub.rival.io:8080', 'sub.rival.io', 'domain'],
    ['www.acme.com/about', 'acme.com', 'domain'],
    ['@Corp.example', 'corp.example', 'domain'],
    ['acme.com.', 'acme.com', 'domain'],
    ['mailto:Mail@Company.COM', 'mail@company.com', 'email'],
    ['Ann@Acme.com.', 'ann@acme.com', 'email'],
    ['Ann Smith <Ann@Acme.com>', 'ann@acme.com', 'email'],
    ['"Smith, Ann" <mailto:ann@acme.com>', 'ann@acme.com', 'email'],
    ['<acme.com>', 'acme.com', 'domain'],
    ['ann@acme.com <Ann@Acme.com>', 'ann@acme.com', 'email'],
    ['"ann@x.com" <bob@y.com>', 'bob@y.com', 'email'],
    ['mailto:Dee@Acme.com?subject=unsubscribe', 'dee@acme.com', 'email'],
    ['Jose\u0301@acme.com', 'jos\u00e9@acme.com', 'email'],
  ])('%j -> %s (%s)', (raw, value, type) => expect(classifyDncValue(raw)).toEqual({ ok: true, value, type }));

  it.each([
    ['Legal@BigCorp.COM', 'legal@bigcorp.com'],
    ['mailto:ann@acme.com', 'ann@acme.com'],
    ['ann@acme.com.', 'ann@acme.com'],
    ['@Acme.com', 'acme.com'],
    ['https://www.acme.com/x', 'acme.com'],
    ['ann@Bücher.de', 'ann@xn--bcher-kva.de'],
    ['not a value', undefined],
    ['Ann <ann@acme.com>', 'ann@acme.com'],
    ['jose\u0301@acme.com', 'jos\u00e9@acme.com'], // an accent written apart is the same letter
  ])('a list value %j is looked up as %j', (raw, key) => expect(listValueKey(raw)).toBe(key));

  it.each([
    'garbage',
    '',
    'http://',
    '1.2.3.4',
    'a@b',
    'not an email@x.com',
    '<>',
    '.',
    'a <b> <c@d.com>',
    'https://www.linkedin.com/in/ann',
    'linkedin.com/in/ann',
  ])('rejects %j', (raw) => expect(classifyDncValue(raw).ok).toBe(false));
});

describe('dnc lists / show / search', () => {
  it('lists lists, showing counts from either shape', async () => {
    const result = await dnc(['lists']);
    expect(result.stdout).toBe(
      'dncGlobal1\tGlobal do-not-contact\t40\t2026-03-01T09:30:00.000Z\tAlice Admin\ndncCustmr2\tCurrent customers\t2\t2026-02-10T08:00:00.000Z\tBob Ops\n',
    );
  });

  it('shows one page or --all, always sending type', async () => {
    const first = await dnc(['show', 'dncGlobal1']);
    expect({ lines: first.stdout.trim().split('\n').length, stderr: first.stderr }).toEqual({ lines: 25, stderr: '' });
    // A person at a terminal learns there is more; a script asked for one page and gets it.
    const table = await dnc(['show', 'dncGlobal1'], { stdoutIsTTY: true });
    expect(table.stderr).toBe('Page 1 of 2: --page 2 for the next, --all for every value.\n');
    expect((await dnc(['show', 'dncGlobal1', '--page', '2'], { stdoutIsTTY: true })).stderr).toBe('');
    expect((await dnc(['show', 'dncGlobal1', '--all'])).stdout.trim().split('\n')).toHaveLength(40);
    expect((await dnc(['show', 'dncGlobal1', '--type', 'domain'])).stdout).toBe(
      'competitor.com\tdomain\t2026-02-01T12:00:00.000Z\tAlice Admin\ngov.example\tdomain\t2026-02-04T12:00:00.000Z\tAlice Admin\n',
    );
    const tooBig = await dnc(['show', 'dncGlobal1', '--page-size', '500']);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain('error: --page-size must be a whole number from 1 to 100, not "500"');
  });

  it('searches across lists', async () => {
    expect((await dnc(['search', 'acme'])).stdout).toBe(
      'dncCustmr2\tCurrent customers\tacme.com\tdomain\t2026-02-10T08:00:00.000Z\n',
    );
  });
});

describe('dnc add', () => {
  it('names a --column the file does not have, and its columns, sending nothing (exit 2)', async () => {
    writeFileSync(join(dir, 'optouts.csv'), 'Name,Email Address\nA,a@x.example\n');
    const result = await dnc(['add', 'dncCustmr2', '--file', 'optouts.csv', '--column', 'Mail']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: 'error: --column "Mail": optouts.csv has no such column\nhint: Its columns are: Name, Email Address\n',
    });
    expect(adds()).toHaveLength(0);
  });

  it('without --column reads the email column of a contacts export, not the profile URL or website before it', async () => {
    writeFileSync(
      join(dir, 'contacts.csv'),
      'First Name,URL,Website,Email Address\nAvery,https://www.linkedin.com/in/avery,https://rival.io,avery@x.example\n',
    );
    const result = await dnc(['add', 'dncCustmr2', '--file', 'contacts.csv', '-q']);
    expect(result.code).toBe(0);
    expect(values()).toEqual(['acme.com', 'ceo@initech.com', 'avery@x.example']);
    // A column only named like an address still comes before a website; a flag about email is no address.
    writeFileSync(join(dir, 'crm.csv'), 'Website,Do Not Email,Primary Email\nhttps://rival.io,true,crm@x.example\n');
    expect((await dnc(['add', 'dncCustmr2', '--file', 'crm.csv', '-q'])).code).toBe(0);
    expect(values()).toContain('crm@x.example');
    expect(values()).not.toContain('rival.io');
  });

  it('normalises, drops duplicates, rejects garbage with row numbers, and exits 3', async () => {
    writeFileSync(
      join(dir, 'optouts.csv'),
      'Name,Email Address\nA,A@X.example\nB,https://www.Rival.io/pricing\nC,garbage\nD,a@x.example\nE,acme.com\n',
    );
    const result = await dnc(['add', 'dncCustmr2', '--file', 'optouts.csv', '--column', 'email address', '--json']);
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout)).toEqual({
      read: 5,
      valid: 3,
      duplicates: 1,
      rejected: 1,
      sent: 3,
      sentBefore: 0,
      chunks: 1,
      files: { rejected: join(dir, 'optouts.rejected.csv') },
    });
    expect(result.stderr).toBe(
      `Added to dncCustmr2: 5 read, 3 valid, 1 duplicates dropped, 1 rejected, 3 sent. Rejects: ${join(dir, 'optouts.rejected.csv')}\n` +
        'error: 1 of 5 values rejected\n' +
        `hint: Each row of ${join(dir, 'optouts.rejected.csv')} says why; fix them and add that file.\n`,
    );
    expect(existsSync(join(dir, 'optouts.dnc-journal'))).toBe(false); // finished: nothing left to resume
    expect(readFileSync(join(dir, 'optouts.rejected.csv'), 'utf8')).toBe(
      'row,reason,Name,Email Address\n4,"not an email or a domain: invalid domain ""garbage"": no top-level domain",C,garbage\n',
    );
    expect(values()).toEqual(['acme.com', 'ceo@initech.com', 'a@x.example', 'rival.io']);
  });

  it("writes the rejected rows with the input's byte-order mark and CRLF line endings", async () => {
    writeFileSync(join(dir, 'excel.csv'), '\uFEFFName,Email Address\r\nC,garbage\r\nA,a@x.example\r\n');
    const result = await dnc(['add', 'dncCustmr2', '--file', 'excel.csv', '--column', 'email address', '-q']);
    expect(result.code).toBe(3);
    expect(readFileSync(join(dir, 'excel.rejected.csv'), 'utf8')).toBe(
      '\uFEFFrow,reason,Name,Email Address\r\n' +
        '2,"not an email or a domain: invalid domain ""garbage"": no top-level domain",C,garbage\r\n',
    );
  });

  it('reads plain text lines and stdin, and values given as arguments', async () => {
    writeFileSync(join(dir, 'list.txt'), 'one.example\ntwo@one.example\n');
    expect((await dnc(['add', 'dncCustmr2', '--file', 'list.txt', '-q'])).code).toBe(0);
    expect(
      (await dnc(['add', 'dncCustmr2', '-', '-q'], { env: sb.env, cwd: dir, stdin: 'three.example\n' })).code,
    ).toBe(0);
    expect((await dnc(['add', 'dncCustmr2', 'four.example', '-q'])).code).toBe(0);
    expect(values().slice(2)).toEqual(['one.example', 'two@one.example', 'three.example', 'four.example']);
  });

  it('sends chunks of --chunk-size and always sends the list id as a string', async () => {
    writeFileSync(join(dir, 'many.txt'), Array.from({ length: 25 }, (_, i) => `d${i}.example`).join('\n'));
    const result = await dnc(['add', 'dncCustmr2', '--file', 'many.txt', '--chunk-size', '10', '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: 25, sent: 25, chunks: 3 });
    expect(adds()).toHaveLength(3);
  });

  it('stopped by a failure after a chunk was accepted: says how many values were, then how to continue', async () => {
    writeFileSync(join(dir, 'many.txt'), Array.from({ length: 25 }, (_, i) => `d${i}.example`).join('\n'));
    let posts = 0;
    // The second chunk never reaches the service: the connection is cut before it is forwarded.
    const proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
      method === 'POST' && path === '/v1/dnc' && ++posts === 2 ? 'reset-before' : undefined,
    );
    try {
      const argv = ['add', 'dncCustmr2', '--file', 'many.txt', '--chunk-size', '10', '--concurrency', '1'];
      const env = { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl };
      const failed = await dnc([...argv, '--max-retries', '0'], { env });
      expect(failed.code).toBe(1);
      expect(failed.stderr.split('\n').slice(-3)).toEqual([
        'Accepted so far: 10 values (not sent again).',
        'To continue: outreach dnc add dncCustmr2 --file many.txt --chunk-size 10 --concurrency 1 --max-retries 0 --resume',
        '',
      ]);
      expect(values().filter((v) => v.endsWith('.example'))).toHaveLength(10);
      // Through the same proxy (a journal resumes only against the service it was written for).
      const resumed = await dnc([...argv, '--resume', '--json'], { env });
      expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 25, sentBefore: 10 });
      expect(values().filter((v) => v.endsWith('.example'))).toHaveLength(25);
    } finally {
      await proxy.close();
    }
  });

  it('stopped by a broken quote after a chunk was accepted: exit 1, how many went, and the command that continues', async () => {
    const lines = ['value', ...Array.from({ length: 25 }, (_, i) => `q${i}.example`)];
    lines[15] = '"q14.example';
    writeFileSync(join(dir, 'quoted.csv'), `${lines.join('\n')}\n`);
    const argv = ['add', 'dncCustmr2', '--file', 'quoted.csv', '--chunk-size', '10', '--concurrency', '1'];
    const failed = await dnc(argv);
    expect(failed.code).toBe(1);
    expect(failed.stderr.split('\n').slice(-4)).toEqual([
      expect.stringMatching(/^hint: .*Once the file is fixed, the command below sends only the rest\.$/),
      'Accepted so far: 10 values (not sent again).',
      'To continue: outreach dnc add dncCustmr2 --file quoted.csv --chunk-size 10 --concurrency 1 --resume',
      '',
    ]);
    expect(adds()).toHaveLength(1);
  });

  it('resumes without re-sending accepted chunks', async () => {
    writeFileSync(join(dir, 'many.txt'), Array.from({ length: 25 }, (_, i) => `d${i}.example`).join('\n'));
    await dnc([
      'add',
      'dncCustmr2',
      '--file',
      'many.txt',
      '--chunk-size',
      '10',
      '--concurrency',
      '1',
      '-q',
      '--keep-journal',
    ]);
    cutJournal(join(dir, 'many.dnc-journal'), 1);
    const before = adds().length;
    const unfinished = await dnc(['add', 'dncCustmr2', '--file', 'many.txt', '--chunk-size', '10']);
    expect(unfinished.code).toBe(2);
    const resumed = await dnc(['add', 'dncCustmr2', '--file', 'many.txt', '--chunk-size', '10', '--resume', '--json']);
    expect(resumed.code).toBe(0);
    expect(adds().length - before).toBe(2);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 25, sentBefore: 10, chunks: 3 });
  });
});

describe('dnc export', () => {
  it('streams every item as CSV and neutralises formula-like cells unless --raw', async () => {
    sb.sandbox.store.table(dncItemsTable).put({
      id: 'x',
      listId: 'dncCustmr2',
      value: '=cmd|calc',
      type: 'domain',
      createdAt: '2026-01-01T00:00:00.000Z',
      addedBy: '@bob',
    });
    const result = await dnc(['export', 'dncCustmr2']);
    expect(result.stdout).toBe(
      "value,type,createdAt,addedBy\nacme.com,domain,2026-02-10T08:00:00.000Z,Bob Ops\nceo@initech.com,email,2026-02-10T08:00:00.000Z,Bob Ops\n'=cmd|calc,domain,2026-01-01T00:00:00.000Z,'@bob\n",
    );
    expect((await dnc(['export', 'dncCustmr2', '--raw'])).stdout.split('\n')[3]).toBe(
      '=cmd|calc,domain,2026-01-01T00:00:00.000Z,@bob',
    );
  });

  it('writes -o files whole, all 40 items across pages', async () => {
    const result = await dnc(['export', 'dncGlobal1', '-o', 'out.csv']);
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'out.csv'), 'utf8').trim().split('\n')).toHaveLength(41);
    expect(readdirSync(dir)).toEqual(['out.csv']);
    // It says what it wrote: on stderr for a person, as JSON under --json.
    expect(result.stderr).toBe(`Wrote 40 row(s) to ${join(dir, 'out.csv')}\n`);
    const json = await dnc(['export', 'dncGlobal1', '-o', 'again.csv', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ file: join(dir, 'again.csv'), rows: 40 });
  });

  it('leaves no file when the list cannot be read', async () => {
    const result = await dnc(['export', 'nope', '-o', 'out.csv']);
    // An unknown list is exit 2, as every unknown id is.
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: no DNC list nope\n/);
    expect(existsSync(join(dir, 'out.csv'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('dnc blacklist-domains', () => {
  it('warns that it is deprecated and names dnc add', async () => {
    const result = await dnc(['blacklist-domains', 'a.example']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      'warning: blacklist-domains uses a deprecated endpoint; use `outreach dnc add <listId> <domain...>` instead\n',
    );
    expect(result.stdout).toBe('a.example\n');
  });

  it('refuses schemes before sending and sends 50 a call', async () => {
    const bad = await dnc(['blacklist-domains', 'https://a.example', 'ok.example']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'error: not a domain: "https://a.example" (not a bare domain name (no scheme, path or @))',
    );
    const many = await dnc(['blacklist-domains', ...Array.from({ length: 120 }, (_, i) => `d${i}.example`)]);
    expect(many.code).toBe(0);
    expect(sb.sandbox.requestLog.filter((r) => r.path === '/v1/blacklist-domains')).toHaveLength(3);
  });
});
