// Sandbox rules for do-not-contact lists (spec.md, Do not contact): one test per rule.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

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
});
