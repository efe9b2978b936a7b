// prospects import checks every row against every do-not-contact list of the account (read through the DNC
// endpoints, page by page), through the real CLI against an in-process sandbox: reasons, counts, exit codes, state.
import { existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { changeRecord, prospectByEmail, state } from '../helpers/sandbox-state.js';
import { startFaultProxy, type ProxyFault } from '../helpers/fault-proxy.js';
import { cutJournalUnits, dropRecords } from '../helpers/journal.js';
import { dncItemsTable, dncListsTable } from '../../src/sandbox/resources/dnc/tables.js';
import type { DncListRecord } from '../../src/sandbox/model.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-import-dnc-');
  // The seed: "Global do-not-contact" holds legal@bigcorp.com and competitor.com, "Current customers" acme.com.
  writeFileSync(
    join(dir, 'leads.csv'),
    'Email,First Name\n' +
      'ann@fresh.example,Ann\n' +
      'Legal@BigCorp.com,Bob\n' +
      'cid@mail.competitor.com,Cid\n' +
      'dee@acme.com,Dee\n' +
      'legal@bigcorp.com,Bob again\n' +
      'eve@fresh.example,Eve\n',
  );
});
afterEach(() => sb.close());

let configDir: string;
beforeEach(() => (configDir = tempDir('outreach-import-dnc-config-')));
const importIn = (argv: string[]) => run(['prospects', 'import', ...argv], { env: sb.env, cwd: dir, configDir });
const importPosts = () =>
  sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/prospects/import')).length;
const dncReads = () => sb.sandbox.requestLog.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/dnc')).length;

describe('prospects import against the do-not-contact lists', () => {
  it('sends no row on a list: each goes to the rejected file naming its list, and counts as rejected', async () => {
    const result = await importIn(['leads.csv', '--wait']);
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toBe(
      'Imported leads.csv: 6 rows read, 2 sent in 1 chunk, 4 rejected (4 on do-not-contact lists: ' +
        `"Global do-not-contact" 3, "Current customers" 1), 2 succeeded, 0 unchanged, 0 failed. Reports: ${join(dir, 'leads.rejected.csv')}, ` +
        `${join(dir, 'leads.results.csv')}`,
    );
    // Nothing to fix and send again: a row on a list is not to be sent, so there is no failed file.
    expect(existsSync(join(dir, 'leads.failed.csv'))).toBe(false);
    expect(result.stderr).toContain(
      `hint: Every row of ${join(dir, 'leads.rejected.csv')} is on a do-not-contact list, left out on purpose: nothing to fix.\n`,
    );
    expect(readFileSync(join(dir, 'leads.rejected.csv'), 'utf8')).toBe(
      'row,reason,Email,First Name\n' +
        '3,"on do-not-contact list ""Global do-not-contact""",Legal@BigCorp.com,Bob\n' +
        '4,"on do-not-contact list ""Global do-not-contact""",cid@mail.competitor.com,Cid\n' +
        '5,"on do-not-contact list ""Current customers""",dee@acme.com,Dee\n' +
        '6,"on do-not-contact list ""Global do-not-contact""",legal@bigcorp.com,Bob again\n',
    );
    // The results report says the same, row by row.
    expect(readFileSync(join(dir, 'leads.results.csv'), 'utf8')).toContain(
      '5,dee@acme.com,rejected,"on do-not-contact list ""Current customers"""\n',
    );
    expect(prospectByEmail(sb, 'ann@fresh.example')).toBeDefined();
    for (const email of ['legal@bigcorp.com', 'cid@mail.competitor.com', 'dee@acme.com'])
      expect(prospectByEmail(sb, email)).toBeUndefined();
  });

  it('--json: the rows the lists stopped, every list with its rows, and the values read', async () => {
    const result = await importIn(['leads.csv', '--no-wait', '--json']);
    expect(result.code).toBe(3);
    const summary = JSON.parse(result.stdout) as { rejected: number; dnc: unknown };
    expect(summary.rejected).toBe(4);
    expect(summary.dnc).toEqual({
      checked: true,
      values: 42,
      rows: 4,
      lists: [
        { id: 'dncGlobal1', name: 'Global do-not-contact', rows: 3 },
        { id: 'dncCustmr2', name: 'Current customers', rows: 1 },
      ],
    });
  });

  it('a file whose every row is on a list is no bad input: exit 3, nothing sent, nothing to fix', async () => {
    writeFileSync(join(dir, 'listed.csv'), 'email\ndee@acme.com\nlegal@bigcorp.com\n');
    const result = await importIn(['listed.csv', '--no-wait']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('error: every row is on a do-not-contact list: nothing was sent\n');
    expect(result.stderr).toContain(
      `hint: Every row of ${join(dir, 'listed.rejected.csv')} is on a do-not-contact list, left out on purpose: nothing to fix.`,
    );
    expect(prospectByEmail(sb, 'dee@acme.com')).toBeUndefined();
  });

  it('--dry-run says how many rows each list would stop, and sends nothing', async () => {
    // A real run's report first: the dry run's own has a name of its own and leaves it as it was.
    writeFileSync(join(dir, 'leads.rejected.csv'), 'the report of a real run\n');
    const result = await importIn(['leads.csv', '--dry-run']);
    expect(result.code).toBe(3);
    expect(result.stderr.split('\n')[0]).toBe(
      'Checked leads.csv: 6 rows read, 2 would be sent, 4 rejected (4 on do-not-contact lists: ' +
        `"Global do-not-contact" 3, "Current customers" 1). Reports: ${join(dir, 'leads.dry-run.rejected.csv')}`,
    );
    expect(readFileSync(join(dir, 'leads.rejected.csv'), 'utf8')).toBe('the report of a real run\n');
    expect(prospectByEmail(sb, 'ann@fresh.example')).toBeUndefined();
  });

  it('--no-dnc-check reads no list, says so, and sends every row', async () => {
    const result = await importIn(['leads.csv', '--no-wait', '--no-dnc-check']);
    expect(result.code).toBe(3); // the second legal@bigcorp.com is a duplicate
    expect(dncReads()).toBe(0);
    expect(result.stderr).toContain('Not checking rows against the do-not-contact lists (--no-dnc-check).\n');
    expect(result.stderr).toContain('1 rejected, no row checked against the do-not-contact lists (--no-dnc-check)');
    expect(prospectByEmail(sb, 'dee@acme.com')).toBeDefined();
  });

  it('reads a list of many pages whole, and shows a list name as text, not terminal control', async () => {
    const values = Array.from({ length: 2_345 }, (_, i) => `p${i}@many.example`);
    writeFileSync(join(dir, 'values.csv'), `value\n${values.join('\n')}\n`);
    expect((await run(['dnc', 'add', 'dncCustmr2', '--file', 'values.csv'], { env: sb.env, cwd: dir })).code).toBe(0);
    changeRecord<DncListRecord>(sb, dncListsTable, 'dncCustmr2', (list) => (list.name = 'Cust\u001b[31mred'));
    writeFileSync(join(dir, 'many.csv'), 'email\np0@many.example\np2344@many.example\np2345@many.example\n');
    const result = await importIn(['many.csv', '--no-wait']);
    expect(result.stderr.split('\n')[0]).toContain('2 rejected (2 on do-not-contact lists: "Cust\\u001b[31mred" 2)');
    // 1 listing, 1 page of the first list, 24 of the second (2,347 values, 100 a page).
    expect(dncReads()).toBe(26);
    // --json has the name as the service has it (JSON escapes it), as dnc lists --json has it: not escaped twice.
    const json = await importIn(['many.csv', '--dry-run', '--json']);
    const lists = (JSON.parse(json.stdout) as { dnc: { lists: Array<{ name: string }> } }).dnc.lists;
    expect(lists.map((l) => l.name)).toContain('Cust\u001b[31mred');
  });

  it('reads the pages of a list several at a time through faults: each page retried, every value held once', async () => {
    const values = Array.from({ length: 1_234 }, (_, i) => `f${i}@faults.example`);
    writeFileSync(join(dir, 'values.csv'), `value\n${values.join('\n')}\n`);
    expect((await run(['dnc', 'add', 'dncCustmr2', '--file', 'values.csv'], { env: sb.env, cwd: dir })).code).toBe(0);
    // The 3rd, 7th and 12th requests for a page of the list break, in three ways; their retries get through.
    const broken = new Map<number, ProxyFault>([
      [3, 'reset-after'],
      [7, 'truncate'],
      [12, 'rate-limit'],
    ]);
    let pageRequests = 0;
    const proxy = await startFaultProxy(sb.baseUrl, ({ path }) =>
      path === '/v1/dnc/dncCustmr2' ? broken.get(++pageRequests) : undefined,
    );
    try {
      writeFileSync(join(dir, 'f.csv'), 'email\nf0@faults.example\nf1233@faults.example\nf1234@faults.example\n');
      const result = await run(['prospects', 'import', 'f.csv', '--no-wait', '--json'], {
        env: { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl },
        cwd: dir,
        configDir,
      });
      expect(result.code).toBe(3); // rows left out: the two on the list
      expect(proxy.log.filter((r) => r.fault).map((r) => r.fault)).toEqual(['reset-after', 'truncate', 'rate-limit']);
      expect(pageRequests).toBe(13 + 3); // 1,236 values: 13 pages, 3 of them asked twice
      const summary = JSON.parse(result.stdout) as { sent: number; rejected: number; dnc: { values: number } };
      const held = state(sb).dncLists.reduce((n, list) => n + list.items.length, 0);
      expect(summary).toMatchObject({ sent: 1, rejected: 2, dnc: { values: held } });
      expect(prospectByEmail(sb, 'f1234@faults.example')).toBeDefined();
      expect(prospectByEmail(sb, 'f0@faults.example')).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });

  it('a resume keeps the choice of its first run: skipping the check on resume is refused', async () => {
    const first = await importIn(['leads.csv', '--no-wait', '--no-dnc-check', '--keep-journal']);
    expect(first.code).toBe(3);
    const resumed = await importIn(['leads.csv', '--no-wait', '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      'error: --resume: the flags or the column mapping differ from the run recorded in the journal (here: --no-dnc-check)',
    );
    expect(await importIn(['leads.csv', '--no-wait', '--resume', '--no-dnc-check'])).toMatchObject({ code: 3 });
    // The other way round: the lists did not change, and the refusal does not say they did.
    expect((await importIn(['leads.csv', '--no-wait', '--restart', '--keep-journal'])).code).toBe(3);
    const unchecked = await importIn(['leads.csv', '--no-wait', '--resume', '--no-dnc-check']);
    expect(unchecked.code).toBe(2);
    expect(unchecked.stderr.split('\n')[0]).toBe(
      'error: --resume: the flags or the column mapping differ from the run recorded in the journal (here: --no-dnc-check)',
    );
  });

  it('keeps each list for the next import while it does not change; a change, or a damaged copy, is read again', async () => {
    const pages = () =>
      sb.sandbox.requestLog.filter((r) => r.method === 'GET' && /^\/v1\/dnc\/dnc/.test(r.path)).length;
    expect((await importIn(['leads.csv', '--dry-run'])).code).toBe(3);
    expect(pages()).toBe(2);
    // Unchanged: only the listing is read, and the same rows are stopped.
    const again = await importIn(['leads.csv', '--dry-run', '--json']);
    expect(pages()).toBe(2);
    expect(JSON.parse(again.stdout).dnc.lists.map((l: { rows: number }) => l.rows)).toEqual([3, 1]);
    // --no-dnc-cache reads every list from the service all the same.
    expect((await importIn(['leads.csv', '--dry-run', '--no-dnc-cache'])).code).toBe(3);
    expect(pages()).toBe(4);
    await importIn(['leads.csv', '--dry-run']);
    expect(pages()).toBe(4); // and the copies it wrote afresh serve the next import
    // A value added to one list changes its size and updatedAt: that list alone is read again, and the new value stops.
    await run(['dnc', 'add', 'dncCustmr2', 'fresh.example'], { env: sb.env, cwd: dir });
    const changed = await importIn(['leads.csv', '--dry-run', '--json']);
    expect(pages()).toBe(5);
    expect(JSON.parse(changed.stdout).dnc.lists.map((l: { rows: number }) => l.rows)).toEqual([3, 3]);
    // A list holding a value that is neither an email nor a domain (as a service's own UI may let in) is kept too.
    sb.sandbox.store.table(dncItemsTable).put({
      id: 'dncOdd1',
      listId: 'dncCustmr2',
      value: 'not a value',
      type: 'domain',
      createdAt: '2026-01-01T00:00:00.000Z',
      addedBy: 'Someone',
    });
    changeRecord<DncListRecord>(
      sb,
      dncListsTable,
      'dncCustmr2',
      (list) => (list.updatedAt = '2026-11-01T00:00:00.000Z'),
    );
    await importIn(['leads.csv', '--dry-run']);
    expect(pages()).toBe(6);
    await importIn(['leads.csv', '--dry-run']);
    expect(pages()).toBe(6);
    // A copy written on a machine of the other byte order (a config folder shared) is not believed.
    const cacheDir = join(configDir, 'dnc-cache');
    const other = endianness() === 'LE' ? 'BE' : 'LE';
    for (const name of readdirSync(cacheDir)) {
      const text = readFileSync(join(cacheDir, name)).toString('latin1');
      expect(text).toContain(`"v":"3${endianness()}"`);
      writeFileSync(join(cacheDir, name), text.replace(`"v":"3${endianness()}"`, `"v":"3${other}"`), 'latin1');
    }
    await importIn(['leads.csv', '--dry-run']);
    expect(pages()).toBe(8);
    // A copy cut short (or changed) is not believed.
    for (const name of readdirSync(cacheDir)) truncateSync(join(cacheDir, name), 100);
    await importIn(['leads.csv', '--dry-run']);
    expect(pages()).toBe(10);
  });

  it('a resume after the lists changed tells the rows already sent as they were checked, and stops the rest if a list holds them now', async () => {
    const argv = ['leads.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '-q'])).code).toBe(3);
    // Killed after Ann's chunk: Eve's (row 7) was never sent.
    cutJournalUnits(join(dir, 'leads.import-journal'), 1);
    // Ann (sent) and Eve (not sent) go on a list; Legal@BigCorp's list is as it was.
    await run(['dnc', 'add', 'dncCustmr2', 'ann@fresh.example', 'eve@fresh.example'], { env: sb.env, cwd: dir });
    const posts = importPosts();
    const resumed = await importIn([...argv, '--resume', '--json']);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain(
      'The do-not-contact lists changed since this import started: rows in chunks the service already accepted keep ' +
        "that run's verdicts (a row sent before its opt-out is no reject now), and every other row is left out if a " +
        'list held it then or holds it now.\n',
    );
    expect(resumed.stderr).toContain(
      '1 row sent before the lists changed is on a do-not-contact list now (row 2): the service has it.\n',
    );
    expect(importPosts()).toBe(posts); // Ann's chunk was accepted; Eve is on a list now
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      sent: 1,
      sentBefore: 1,
      rejected: 5,
      dnc: {
        rows: 5,
        listedSinceSent: 1,
        lists: [
          { id: 'dncGlobal1', name: 'Global do-not-contact', rows: 3 },
          { id: 'dncCustmr2', name: 'Current customers', rows: 2 },
        ],
      },
    });
    // Ann was sent before her opt-out: she is no reject. Eve is.
    const rejected = readFileSync(join(dir, 'leads.rejected.csv'), 'utf8');
    expect(rejected).not.toContain('ann@fresh.example');
    expect(rejected).toContain('7,"on do-not-contact list ""Current customers""",eve@fresh.example,Eve\n');
  });

  it('a resume after the lists changed does not send again an edited chunk holding a row a list holds now', async () => {
    const argv = ['leads.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '-q'])).code).toBe(3);
    cutJournalUnits(join(dir, 'leads.import-journal'), 1);
    await run(['dnc', 'add', 'dncCustmr2', 'ann@fresh.example'], { env: sb.env, cwd: dir });
    // Ann's row edited since it was sent: her chunk would go again, and she is on a list now.
    writeFileSync(join(dir, 'leads.csv'), readFileSync(join(dir, 'leads.csv'), 'utf8').replace(',Ann\n', ',Anna\n'));
    const posts = importPosts();
    const resumed = await importIn([...argv, '--resume']);
    // A file to fix, as any broken row after chunks were accepted: exit 1, and the way to continue.
    expect(resumed.code).toBe(1);
    expect(resumed.stderr).toContain(
      'error: row 2 is on do-not-contact list "Current customers" now, and its chunk, which the service accepted ' +
        'before the lists changed, is to be sent again (its rows differ from those sent): stopped before sending it\n',
    );
    expect(resumed.stderr).toContain(
      'To continue: outreach prospects import leads.csv --chunk-size 1 --concurrency 1 --no-wait --resume\n',
    );
    expect(importPosts()).toBe(posts);
  });

  it('a resume after the lists changed forms the chunks as recorded: an unanswered one loses its listed row, and the accepted one after it is not sent again', async () => {
    writeFileSync(
      join(dir, 'six.csv'),
      'email\n' + ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@fresh.example\n`).join(''),
    );
    const argv = ['six.csv', '--chunk-size', '2', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(0);
    // Chunks 0 (rows 2-3) and 2 (rows 6-7) accepted; chunk 1 (rows 4-5) sent, its answer lost.
    const journal = join(dir, 'six.import-journal');
    const lines = readFileSync(journal, 'utf8').trim().split('\n');
    writeFileSync(journal, `${lines.filter((l) => !/"finished"|^\{"unit":1,"accepted"/.test(l)).join('\n')}\n`);
    await run(['dnc', 'add', 'dncCustmr2', 'c@fresh.example', 'f@fresh.example'], { env: sb.env, cwd: dir });
    const posts = importPosts();
    const resumed = await importIn([...argv, '--resume', '--json']);
    expect(resumed.code).toBe(3);
    // Chunk 1 goes again without C (row 4); chunk 2, with F, is the one accepted before: not sent again.
    expect(importPosts()).toBe(posts + 1);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      sent: 5,
      sentBefore: 4,
      rejected: 1,
      chunks: 3,
      dnc: { rows: 1, listedSinceSent: 1 },
    });
    expect(readFileSync(join(dir, 'six.rejected.csv'), 'utf8')).toBe(
      'row,reason,email\n' +
        '4,"on do-not-contact list ""Current customers"" now; an earlier run sent it and its answer was lost: the ' +
        'service may hold it",c@fresh.example\n',
    );
    expect(resumed.stderr).toContain(
      '1 row sent before the lists changed is on a do-not-contact list now (row 7): the service has it.\n',
    );
  });

  it('a second resume after a second change forms the chunks as the first: copies of an email stay duplicates, and nothing accepted goes again', async () => {
    // Q twice: its second copy (row 5) was a duplicate inside chunk 1, which the service accepted; chunk 0 (Q and X)
    // was sent and its answer lost.
    writeFileSync(
      join(dir, 'q.csv'),
      'email\nq@fresh.example\nx@fresh.example\ny@fresh.example\nq@fresh.example\nz@fresh.example\n',
    );
    const argv = ['q.csv', '--chunk-size', '2', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(3);
    const journal = join(dir, 'q.import-journal');
    dropRecords(journal, /^\{"unit":0,"accepted"|"finished"/);
    await run(['dnc', 'add', 'dncCustmr2', 'q@fresh.example'], { env: sb.env, cwd: dir });
    const posts = importPosts();
    const first = await importIn([...argv, '--resume', '--keep-journal', '--json']);
    expect(first.code).toBe(3);
    expect(importPosts()).toBe(posts + 1); // chunk 0 again, without Q
    expect(readFileSync(join(dir, 'q.rejected.csv'), 'utf8')).toBe(
      'row,reason,email\n' +
        '2,"on do-not-contact list ""Current customers"" now; an earlier run sent it and its answer was lost: the ' +
        'service may hold it",q@fresh.example\n' +
        '5,duplicate email: first seen on row 2,q@fresh.example\n',
    );
    // A second change of the lists, then a second resume.
    await run(['dnc', 'add', 'dncCustmr2', 'unrelated.example'], { env: sb.env, cwd: dir });
    dropRecords(journal, /"finished"/);
    const second = await importIn([...argv, '--resume', '--json']);
    expect(second.code).toBe(3);
    expect(importPosts()).toBe(posts + 1);
    expect(JSON.parse(second.stdout)).toMatchObject({ sent: 3, sentBefore: 3, rejected: 2, chunks: 2 });
    // Chunk 0 was accepted by the first resume (without Q): Q's stop is its record's now.
    expect(readFileSync(join(dir, 'q.rejected.csv'), 'utf8')).toBe(
      'row,reason,email\n' +
        '2,"on do-not-contact list ""Current customers""",q@fresh.example\n' +
        '5,duplicate email: first seen on row 2,q@fresh.example\n',
    );
  });

  it('a resume after the lists changed passes over a recorded chunk none of whose rows goes now, and does not count it', async () => {
    writeFileSync(join(dir, 'k.csv'), 'email\n' + ['a', 'b', 'c', 'd'].map((n) => `${n}@fresh.example\n`).join(''));
    const argv = ['k.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(0);
    // Chunk 1 (B alone) was sent and its answer lost; B is on a list now.
    dropRecords(join(dir, 'k.import-journal'), /^\{"unit":1,"accepted"|"finished"/);
    await run(['dnc', 'add', 'dncCustmr2', 'b@fresh.example'], { env: sb.env, cwd: dir });
    const posts = importPosts();
    const resumed = await importIn([...argv, '--resume', '--json']);
    expect(resumed.code).toBe(3);
    expect(importPosts()).toBe(posts);
    const summary = JSON.parse(resumed.stdout);
    expect(summary).toMatchObject({ sent: 3, sentBefore: 3, rejected: 1, chunks: 3 });
    expect(summary.requestIds).toHaveLength(3);
  });

  it('names at most five of the rows sent before the lists changed that a list holds now', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    writeFileSync(join(dir, 'h.csv'), 'email\n' + names.map((n) => `${n}@fresh.example\n`).join(''));
    const argv = ['h.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(0);
    dropRecords(join(dir, 'h.import-journal'), /^\{"unit":8,"accepted"|"finished"/);
    await run(['dnc', 'add', 'dncCustmr2', ...names.map((n) => `${n}@fresh.example`)], { env: sb.env, cwd: dir });
    const resumed = await importIn([...argv, '--resume', '--json']);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain(
      '8 rows sent before the lists changed are on a do-not-contact list now (row 2, 3, 4, 5, 6, ...): the service has them.\n',
    );
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      sent: 8,
      sentBefore: 8,
      rejected: 1,
      dnc: { listedSinceSent: 8 },
    });
  });

  it('a resume forms the chunks as its journal records them even after the lists changed back', async () => {
    writeFileSync(
      join(dir, 'r.csv'),
      'email\n' + ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@fresh.example\n`).join(''),
    );
    const argv = ['r.csv', '--chunk-size', '2', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(0);
    const journal = join(dir, 'r.import-journal');
    dropRecords(journal, /^\{"unit":1,"accepted"|"finished"/);
    const customers = { ...sb.sandbox.store.table(dncListsTable).get('dncCustmr2')! };
    await run(['dnc', 'add', 'dncCustmr2', 'd@fresh.example'], { env: sb.env, cwd: dir });
    const posts = importPosts();
    expect((await importIn([...argv, '--resume', '-q'])).code).toBe(3);
    expect(importPosts()).toBe(posts + 1); // chunk 1 again, without D
    // The list as it was: its last value gone, its last change as before.
    const items = sb.sandbox.store.table(dncItemsTable);
    items.delete(items.all().find((item) => item.value === 'd@fresh.example')!.id);
    sb.sandbox.store.table(dncListsTable).put(customers);
    const again = await importIn([...argv, '--resume', '--json']);
    expect(again.code).toBe(3);
    expect(importPosts()).toBe(posts + 1);
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 5, sentBefore: 5, rejected: 1 });
  });

  it('a copy of an email sent in an accepted chunk, in a chunk whose answer was lost, is told as the duplicate it was', async () => {
    writeFileSync(join(dir, 'd.csv'), 'email\nq@fresh.example\nx@fresh.example\ny@fresh.example\nq@fresh.example\n');
    const argv = ['d.csv', '--chunk-size', '2', '--concurrency', '1', '--no-wait'];
    expect((await importIn([...argv, '--keep-journal', '-q'])).code).toBe(3);
    dropRecords(join(dir, 'd.import-journal'), /^\{"unit":1,"accepted"|"finished"/);
    await run(['dnc', 'add', 'dncCustmr2', 'q@fresh.example'], { env: sb.env, cwd: dir });
    expect((await importIn([...argv, '--resume', '-q'])).code).toBe(3);
    // Row 5 never went (a duplicate of row 2): no word of the service holding it.
    expect(readFileSync(join(dir, 'd.rejected.csv'), 'utf8')).toBe(
      'row,reason,email\n5,"on do-not-contact list ""Current customers""",q@fresh.example\n',
    );
  });

  it('a dry run of a resume checks the rows as the lists are now, whatever its journal records', async () => {
    expect((await importIn(['leads.csv', '--no-wait', '--keep-journal'])).code).toBe(3);
    const journal = join(dir, 'leads.import-journal');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/,"dnc":\{[^}]*\}/g, ''));
    await run(['dnc', 'add', 'dncCustmr2', 'fresh.example'], { env: sb.env, cwd: dir });
    const dry = await importIn(['leads.csv', '--dry-run', '--resume', '--json']);
    expect(dry.code).toBe(3);
    expect(JSON.parse(dry.stdout)).toMatchObject({ wouldSend: 0, rejected: 6 });
  });

  it('--strict --resume after the lists changed checks the rows first as the sending pass does: by the verdicts of before', async () => {
    // Legal@BigCorp twice: stopped twice by "Global" in the first run, so never a duplicate.
    writeFileSync(
      join(dir, 'twice.csv'),
      'email\nlegal@bigcorp.com\nann@fresh.example\nlegal@bigcorp.com\nbob@fresh.example\n',
    );
    const argv = ['twice.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait', '--strict'];
    expect((await importIn([...argv, '-q'])).code).toBe(3);
    cutJournalUnits(join(dir, 'twice.import-journal'), 1);
    // Global lets legal@bigcorp.com go (its entry now holds another address). Row 2 keeps its verdict (its stop is
    // recorded with Ann's chunk), so row 4 is no duplicate of it: checked by the lists of now alone, --strict would
    // refuse the file for that duplicate.
    const items = sb.sandbox.store.table(dncItemsTable);
    const legal = items.all().find((item) => item.value === 'legal@bigcorp.com')!;
    items.put({ ...legal, value: 'counsel@bigcorp.com' });
    changeRecord<DncListRecord>(
      sb,
      dncListsTable,
      'dncGlobal1',
      (list) => (list.updatedAt = '2026-11-01T00:00:00.000Z'),
    );
    const resumed = await importIn([...argv, '--resume', '--json']);
    expect(resumed.code).toBe(3);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 3, sentBefore: 1, rejected: 1, dnc: { rows: 1 } });
    expect(readFileSync(join(dir, 'twice.rejected.csv'), 'utf8')).toBe(
      'row,reason,email\n2,"on do-not-contact list ""Global do-not-contact""",legal@bigcorp.com\n',
    );
  });

  it('a resume after the lists changed refuses a journal whose record of what they stopped outreach did not write', async () => {
    const argv = ['leads.csv', '--chunk-size', '1', '--concurrency', '1', '--no-wait', '-q'];
    expect((await importIn(argv)).code).toBe(3);
    const journal = join(dir, 'leads.import-journal');
    cutJournalUnits(journal, 2);
    // Eve's chunk says the lists stopped a row past its own.
    writeFileSync(journal, readFileSync(journal, 'utf8').replace('"stops":[3,0,', '"stops":[30,0,'));
    await run(['dnc', 'add', 'dncCustmr2', 'fresh.example'], { env: sb.env, cwd: dir });
    const resumed = await importIn([...argv, '--resume']);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('holds a record of unit 1 (sending) that outreach did not write');
  });

  it('a resume after the lists changed is refused when the journal does not record what they stopped then', async () => {
    expect((await importIn(['leads.csv', '--no-wait', '--keep-journal'])).code).toBe(3);
    // As an older outreach wrote it: its chunks record no verdicts.
    const journal = join(dir, 'leads.import-journal');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace(/,"dnc":\{[^}]*\}/g, ''));
    await run(['dnc', 'add', 'dncCustmr2', 'fresh.example'], { env: sb.env, cwd: dir });
    // The service named by a global flag, as a user on another service would: the hint's command names it too.
    const global = ['--base-url', sb.baseUrl];
    const resumed = await run([...global, 'prospects', 'import', 'leads.csv', '--no-wait', '--resume'], {
      env: { ...sb.env, OUTREACH_BASE_URL: 'http://127.0.0.1:9' },
      cwd: dir,
      configDir,
    });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(
      'error: --resume: the do-not-contact lists changed since this import started (a list has another size or was ' +
        'updated), and its journal does not record what they stopped then',
    );
    // Every row had been sent: the hint is where the outcome is, not a second send, and its command works.
    const hint = new RegExp(
      `^hint: Every row was sent before they changed: the outcome is at the service\\. outreach --base-url ${sb.baseUrl.replace(/[.]/g, '\\.')} (prospects import-status (\\S+) --wait)\\.$`,
      'm',
    ).exec(resumed.stderr);
    expect(hint).not.toBeNull();
    const status = await run(['prospects', 'import-status', hint![2]!, '--wait', '--json'], { env: sb.env, cwd: dir });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ payload: { isCompleted: true } });
  });

  it('--strict refuses a file for its bad rows only: rows on a list are left out and the rest is sent', async () => {
    const strict = await importIn(['leads.csv', '--strict', '--no-wait']);
    expect(strict.code).toBe(3);
    expect(strict.stderr.split('\n')[0]).toMatch(
      /^Imported leads\.csv: 6 rows read, 2 sent .*4 rejected \(4 on do-not-contact/,
    );
    writeFileSync(join(dir, 'bad.csv'), 'email\nok@fresh.example\nnot-an-email\nlegal@bigcorp.com\n');
    const refused = await importIn(['bad.csv', '--strict', '--no-wait']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('error: --strict: 1 of 3 rows failed the checks; nothing was sent');
  });

  it('compares domains in one form: a Unicode domain on a list stops its ASCII form, and the reverse', async () => {
    await run(['dnc', 'add', 'dncCustmr2', 'xn--bcher-kva.de'], { env: sb.env, cwd: dir });
    writeFileSync(join(dir, 'idn.csv'), 'email\nann@bücher.de\nbob@xn--bcher-kva.de\ncy@buecher.de\n');
    const result = await importIn(['idn.csv', '--dry-run', '--json']);
    expect(JSON.parse(result.stdout).dnc.lists[1].rows).toBe(2);
  });

  it('a journal written before the lists were recorded still resumes', async () => {
    expect((await importIn(['leads.csv', '--no-wait', '--keep-journal'])).code).toBe(3);
    const journal = join(dir, 'leads.import-journal');
    const text = readFileSync(journal, 'utf8');
    expect(text).toMatch(/,"dncLists":"[0-9a-f]{32}"/);
    writeFileSync(journal, text.replace(/,"dncLists":"[0-9a-f]{32}"/, ''));
    const resumed = await importIn(['leads.csv', '--no-wait', '--resume', '--json']);
    expect(resumed.code).toBe(3);
    expect(resumed.stderr).toContain('2 sent in 1 chunk (2 of them by an earlier run)');
    // Every row sent was sent by the first run: a script can tell.
    expect(JSON.parse(resumed.stdout)).toMatchObject({ sent: 2, sentBefore: 2, rejected: 4 });
  });

  it('a copy of the lists that cannot be written is only a speed-up: the import goes on', async () => {
    writeFileSync(join(configDir, 'dnc-cache'), 'a file where the folder would go');
    const result = await importIn(['leads.csv', '--dry-run']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('4 rejected (4 on do-not-contact lists');
  });
});
