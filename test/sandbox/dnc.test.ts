// Sandbox rules for do-not-contact lists (spec.md, Do not contact): one test per rule.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';
import { withStateDb } from '../helpers/state-db.js';
import { pinnedNow, tempDir } from '../helpers/context.js';
import { openSandboxDb } from '../../src/sandbox/open-state.js';
import { dncItemsTable } from '../../src/sandbox/resources/dnc/tables.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const show = async (query: string) => (await sb.request('GET', `/v1/dnc/dncGlobal1?${query}`)).body.payload;

describe('DNC lists and items', () => {
  it('lists the lists with their item counts', async () => {
    const res = await sb.request('GET', '/v1/dnc');
    expect(res.body.payload.payload.map((l: any) => [l.id, l.name, l.numberOfItems])).toEqual([
      ['dncGlobal1', 'Global do-not-contact', 40],
      ['dncCustmr2', 'Current customers', 2],
    ]);
  });

  it('pages items: page size 25 and page 1 by default, with the full meta', async () => {
    const page = await show('');
    expect(page.dncDetails).toHaveLength(25);
    expect(page.meta).toEqual({ totalItems: 40, currentPage: 1, itemsPerPage: 25, totalPages: 2, itemCount: 25 });
    expect((await show('page=2')).meta).toEqual({
      totalItems: 40,
      currentPage: 2,
      itemsPerPage: 25,
      totalPages: 2,
      itemCount: 15,
    });
  });

  it('refuses a page size over 100', async () => {
    const res = await sb.request('GET', '/v1/dnc/dncGlobal1?pageSize=101');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: query.pageSize: pageSize must be at most 100');
  });

  it('filters by type and searches within a list', async () => {
    expect((await show('type=domain&pageSize=100')).dncDetails.map((i: any) => i.value)).toEqual([
      'competitor.com',
      'gov.example',
    ]);
    expect((await show('search=legal')).dncDetails.map((i: any) => i.value)).toEqual(['legal@bigcorp.com']);
  });

  it('gives addedBy on reads by list id', async () => {
    expect((await show('pageSize=1')).dncDetails[0]).toEqual({
      id: 'dnI000',
      value: 'competitor.com',
      type: 'domain',
      createdAt: '2026-02-01T12:00:00.000Z',
      addedBy: 'Alice Admin',
    });
  });

  it('searches across lists, grouping items by list', async () => {
    const res = await sb.request('GET', '/v1/dnc/item/search?search=.com');
    expect(res.body.payload.dncList.map((l: any) => [l.id, l.dncItems.length])).toEqual([
      ['dncGlobal1', 2],
      ['dncCustmr2', 2],
    ]);
    expect(res.body.payload.meta.totalItems).toBe(4);
  });

  it('answers an unknown list with 400/40004', async () => {
    const res = await sb.request('GET', '/v1/dnc/nope');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40004);
  });
});

describe('POST /v1/dnc', () => {
  it('adds items de-duplicated per list, and needs dncListId as a string', async () => {
    const res = await sb.request('POST', '/v1/dnc', {
      dncListId: 'dncCustmr2',
      items: ['new.example', 'acme.com', 'NEW.example', 'x@y.example', 'junk'],
    });
    expect(res.status).toBe(201);
    expect(res.body.payload).toEqual({ added: 2, duplicates: 2, invalid: 1 });
    expect(state(sb).dncLists[1]!.items.map((i) => i.value)).toEqual([
      'acme.com',
      'ceo@initech.com',
      'new.example',
      'x@y.example',
    ]);
    const numeric = await sb.request('POST', '/v1/dnc', { dncListId: 7, items: ['a.example'] });
    expect(numeric.status).toBe(400);
    expect(numeric.body.message).toBe('Validation failed: body.dncListId: dncListId must be a string');
  });
});

describe('POST /v1/blacklist-domains (deprecated)', () => {
  it('takes 1 to 50 comma-separated domains', async () => {
    const ok = await sb.request('POST', '/v1/blacklist-domains', { domains: 'a.example, b.example' });
    expect(ok.status).toBe(201);
    expect(ok.body.payload).toEqual(['a.example', 'b.example']);
    const many = await sb.request('POST', '/v1/blacklist-domains', {
      domains: Array.from({ length: 51 }, (_, i) => `d${i}.example`).join(','),
    });
    expect(many.body).toMatchObject({ code: 40003 });
    const none = await sb.request('POST', '/v1/blacklist-domains', { domains: ' , ' });
    expect(none.body).toMatchObject({ code: 40001 });
  });

  it('refuses domains with a scheme, and domains already there', async () => {
    expect((await sb.request('POST', '/v1/blacklist-domains', { domains: 'https://a.example' })).body).toMatchObject({
      code: 40001,
      message: 'Invalid domain format: https://a.example',
    });
    await sb.request('POST', '/v1/blacklist-domains', { domains: 'a.example' });
    expect((await sb.request('POST', '/v1/blacklist-domains', { domains: 'a.example' })).body).toMatchObject({
      code: 40002,
    });
  });

  it('pages a whole list in the order items were added, each page a range of places', async () => {
    const values = Array.from({ length: 250 }, (_, i) => `v${i}@order.example`);
    await sb.request('POST', '/v1/dnc', { dncListId: 'dncCustmr2', items: values });
    const pages = await Promise.all(
      [1, 2, 3, 4].map(
        async (page) => (await sb.request('GET', `/v1/dnc/dncCustmr2?page=${page}&pageSize=100`)).body.payload,
      ),
    );
    expect(pages.map((p) => p.meta.itemCount)).toEqual([100, 100, 52, 0]);
    expect(pages[0].meta).toMatchObject({ totalItems: 252, totalPages: 3 });
    expect(pages.flatMap((p) => p.dncDetails.map((i: { value: string }) => i.value))).toEqual([
      'acme.com',
      'ceo@initech.com',
      ...values,
    ]);
    expect(Object.keys(pages[1].dncDetails[0]).sort()).toEqual(['addedBy', 'createdAt', 'id', 'type', 'value']);
  });

  it('numbers items an older outreach added without a place, after those that have one', async () => {
    const items = sb.sandbox.store.table(dncItemsTable);
    const old = { id: 'dncOld1', listId: 'dncCustmr2', value: 'old.example', type: 'domain' as const };
    items.put({ ...old, createdAt: '2026-01-01T00:00:00.000Z', addedBy: 'Old Version' });
    // The listing's size is the last place: the item is numbered before the list is counted.
    const listing = (await sb.request('GET', '/v1/dnc')).body.payload.payload;
    expect(listing.map((l: { numberOfItems: number }) => l.numberOfItems)).toEqual([40, 3]);
    const page = (await sb.request('GET', '/v1/dnc/dncCustmr2?pageSize=100')).body.payload;
    expect(page.dncDetails.map((i: { value: string }) => i.value)).toEqual([
      'acme.com',
      'ceo@initech.com',
      'old.example',
    ]);
    expect(page.meta.totalItems).toBe(3);
  });

  it('a state written before items had places gains their columns when opened', () => {
    const path = `${tempDir('outreach-dnc-pos-')}/state.db`;
    openSandboxDb(path).close();
    withStateDb(path, (db) => {
      db.exec('DROP INDEX dnc_items_c1');
      for (const column of ['pos', 'view']) db.exec(`ALTER TABLE dnc_items DROP COLUMN ${column}`);
    });
    const db = openSandboxDb(path);
    try {
      const columns = withStateDb(path, (raw) => raw.prepare('SELECT name FROM pragma_table_info(?)').all('dnc_items'));
      expect(columns.map((c: any) => c.name)).toEqual(expect.arrayContaining(['pos', 'view']));
    } finally {
      db.close();
    }
  });

  it('shows an item written before items kept their view (by an older outreach) from its record', async () => {
    const path = `${tempDir('outreach-dnc-view-')}/state.db`;
    const own = await startTestSandbox({ db: openSandboxDb(path) });
    try {
      await own.request('POST', '/v1/dnc', {
        dncListId: 'dncCustmr2',
        items: ['new@view.example', 'old@view.example'],
      });
      withStateDb(path, (db) => db.prepare('UPDATE dnc_items SET view = NULL WHERE value = ?').run('old@view.example'));
      const page = (await own.request('GET', '/v1/dnc/dncCustmr2?pageSize=100')).body.payload.dncDetails;
      const pinnedIso = new Date(pinnedNow).toISOString();
      expect(page.slice(2).map(({ id, ...rest }: { id: string }) => [typeof id, rest])).toEqual([
        ['string', { value: 'new@view.example', type: 'email', createdAt: pinnedIso, addedBy: 'Alice Admin' }],
        ['string', { value: 'old@view.example', type: 'email', createdAt: pinnedIso, addedBy: 'Alice Admin' }],
      ]);
    } finally {
      await own.close();
    }
  });
});
