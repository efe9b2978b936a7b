// Do-not-contact lists: listing them (with their sizes), their items by page and search, a search across every list,
// adding values (de-duplicated within a list), and the deprecated domain blacklist.
import { dncEndpoints, type DncItemQuery } from '../../../api/contract/dnc.js';
import { classifyDncValue } from '../../../io/dnc-values.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { seedData } from '../../seed-data.js';
import type { DncItemRecord, DncListRecord } from '../../model.js';
import type { Store } from '../../store.js';
import { dncItemView, dncItemsTable, dncListItemView, dncListsTable } from './tables.js';

export const defaultDncPageSize = 25;
export const maxBlacklistDomains = 50;
/** Where the deprecated blacklist endpoint puts its domains. */
const blacklistName = 'Domain blacklist';

function findList(store: Store, id: string): DncListRecord {
  const list = store.table(dncListsTable).get(id);
  if (!list) throw new SandboxError(400, 40004, `Failed to fetch DNC list ${id}`);
  return list;
}

/** The items query as SQL: the type, and the search text within the value. */
function itemFilter(query: DncItemQuery, listId?: string): { where: string; params: string[] } {
  const clauses: Array<[string, string]> = [];
  if (listId !== undefined) clauses.push(['list_id = ?', listId]);
  if (query.type && query.type !== 'all') clauses.push(['type = ?', query.type]);
  if (query.search) clauses.push(['instr(value, ?) > 0', query.search.toLowerCase()]);
  return { where: clauses.map(([clause]) => clause).join(' AND ') || '1', params: clauses.map(([, value]) => value) };
}

function pageOf(query: DncItemQuery) {
  const currentPage = query.page ?? 1;
  const itemsPerPage = query.pageSize ?? defaultDncPageSize;
  return { currentPage, itemsPerPage, offset: (currentPage - 1) * itemsPerPage };
}

function meta(totalItems: number, { currentPage, itemsPerPage }: ReturnType<typeof pageOf>, itemCount: number) {
  return { totalItems, currentPage, itemsPerPage, totalPages: Math.ceil(totalItems / itemsPerPage), itemCount };
}

/** Items of the lists matching the query, a page of them, and how many match in all. */
function itemPage(store: Store, query: DncItemQuery, listId?: string) {
  const page = pageOf(query);
  const table = store.table(dncItemsTable);
  const { where, params } = itemFilter(query, listId);
  const total = table.count(where, ...params);
  // List by list (in the order they were made), then each list's items in the order they were added. A page past
  // the end is empty (an offset past SQLite's integers would fail the query).
  const orderBy = '(SELECT seq FROM dnc_lists WHERE dnc_lists.id = list_id), seq';
  const items =
    page.offset >= total ? [] : table.select(where, params, { orderBy, limit: page.itemsPerPage, offset: page.offset });
  return { items, meta: meta(total, page, items.length) };
}

/** Each item's stored view (dncListItemView); an item written before the view was stored (by an older outreach) is
 * shown from its record. */
const storedView =
  "COALESCE(view, json_object('id', id, 'value', value, 'type', type, " +
  "'createdAt', json ->> '$.createdAt', 'addedBy', json ->> '$.addedBy'))";

/** A page of a whole list (how a client reads every item of it): a range of places, found by its index, and the
 * count from the last place (items are never taken out, so places run from 1 without gaps). Neither scans the items
 * before the page: reading a list of a million items is linear, not quadratic. */
function wholeListPage(store: Store, listId: string, page: ReturnType<typeof pageOf>) {
  numberItems(store, listId);
  const total = nextPos(store, listId) - 1;
  const last = Math.min(total, page.offset + page.itemsPerPage);
  const itemsJson =
    page.offset >= total
      ? '[]'
      : store.table(dncItemsTable).jsonArrayOf(
          storedView,
          'list_id = ? AND pos > ? AND pos <= ?',
          [listId, page.offset, last],
          'pos',
          page.itemsPerPage, // the range holds no more; one statement a page size
        );
  return { itemsJson, meta: meta(total, page, Math.max(0, last - page.offset)) };
}

/** Numbers the items of a list that have no place yet (added by an older outreach), after those that have one. */
function numberItems(store: Store, listId: string): void {
  const table = store.table(dncItemsTable);
  if (!table.count('list_id = ? AND pos IS NULL', listId)) return;
  let next = nextPos(store, listId);
  for (const item of table.select('list_id = ? AND pos IS NULL', [listId])) table.put({ ...item, pos: next++ });
}

const nextPos = (store: Store, listId: string) =>
  Number(store.table(dncItemsTable).aggregate('MAX(pos)', 'list_id = ?', listId) ?? 0) + 1;

/** A list with its size: its last place, found by the index (counting its items took some 100 ms a listing for a
 * list of a million, and a second and a half on a cold start). */
function listView(store: Store, list: DncListRecord) {
  numberItems(store, list.id);
  return { ...list, numberOfItems: nextPos(store, list.id) - 1 };
}

function addItems(store: Store, list: DncListRecord, values: string[]) {
  const table = store.table(dncItemsTable);
  const counts = { added: 0, duplicates: 0, invalid: 0 };
  const added: string[] = [];
  const now = store.isoNow();
  const { firstName, lastName } = store.account();
  numberItems(store, list.id);
  let pos = nextPos(store, list.id);
  for (const raw of values) {
    const item = classifyDncValue(raw);
    if (!item.ok) counts.invalid++;
    else if (table.count('list_id = ? AND value = ?', list.id, item.value)) counts.duplicates++;
    else {
      table.put({
        id: store.id(),
        listId: list.id,
        value: item.value,
        type: item.type,
        createdAt: now,
        addedBy: `${firstName} ${lastName}`,
        pos: pos++,
      });
      added.push(item.value);
      counts.added++;
    }
  }
  if (counts.added) store.table(dncListsTable).put({ ...list, updatedAt: now });
  return { counts, added };
}

export const dncResource = defineResource({
  tables: [dncListsTable, dncItemsTable],
  routes: routesOf(dncEndpoints, {
    lists: (req, store) => {
      const query = req.query;
      let lists = store
        .table(dncListsTable)
        .all()
        .filter((l) => !query.search || l.name.toLowerCase().includes(query.search.toLowerCase()))
        .map((l) => listView(store, l));
      if (query.sortBy) {
        const key = (l: (typeof lists)[number]) =>
          query.sortBy === 'total' ? l.numberOfItems : Date.parse(l.updatedAt);
        lists = lists.sort((a, b) => (key(a) - key(b)) * (query.sort === 'DESC' ? -1 : 1));
      }
      const page = pageOf(query);
      const shown = lists.slice(page.offset, page.offset + page.itemsPerPage);
      // The real service's shape: {payload: {message, payload: [...]}}.
      return {
        status: 200,
        body: {
          payload: {
            message: 'DNC lists fetched successfully',
            payload: shown,
            meta: meta(lists.length, page, shown.length),
          },
        },
      };
    },

    show: (req, store) => {
      const list = findList(store, req.params.dncListId);
      const message = 'DNC list fetched successfully';
      if (!req.query.search && (req.query.type ?? 'all') === 'all') {
        // The whole list, page by page: the page's items come as JSON text from the database (jsonArrayOf).
        const { itemsJson, meta } = wholeListPage(store, list.id, pageOf(req.query));
        const text = `{"payload":{"message":${JSON.stringify(message)},"dncDetails":${itemsJson},"meta":${JSON.stringify(meta)}}}`;
        return { status: 200, text, contentType: 'application/json; charset=utf-8' };
      }
      const { items, meta } = itemPage(store, req.query, list.id);
      const dncDetails = items.map(dncListItemView);
      return { status: 200, body: { payload: { message, dncDetails, meta } } };
    },

    search: (req, store) => {
      const { items, meta } = itemPage(store, req.query);
      const grouped = new Map<string, DncItemRecord[]>();
      for (const item of items) grouped.set(item.listId, [...(grouped.get(item.listId) ?? []), item]);
      const lists = store.table(dncListsTable);
      const dncList = [...grouped].map(([listId, listItems]) => ({
        ...listView(store, lists.get(listId)!),
        dncItems: listItems.map(dncItemView),
      }));
      return { status: 200, body: { message: 'DNC items fetched successfully', payload: { dncList, meta } } };
    },

    add: (req, store) => {
      const { items, dncListId } = req.body;
      const { counts } = addItems(store, findList(store, dncListId), items);
      return { status: 201, body: { message: 'Items added to the DNC list', payload: counts } };
    },

    blacklistDomains: (req, store) => {
      const domains = req.body.domains
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean);
      if (domains.length === 0) throw new SandboxError(400, 40001, 'At least one domain is required');
      if (domains.length > maxBlacklistDomains)
        throw new SandboxError(400, 40003, `At most ${maxBlacklistDomains} domains per request`);
      const bad = domains.filter((d) => /[/:@]/.test(d) || !classifyDncValue(d).ok);
      if (bad.length) throw new SandboxError(400, 40001, `Invalid domain format: ${bad.join(', ')}`);
      const lists = store.table(dncListsTable);
      let list = lists.first('name = ?', blacklistName);
      if (!list) {
        const now = store.isoNow();
        const { firstName, ownerId } = store.account();
        list = { id: store.id(), name: blacklistName, createdAt: now, updatedAt: now, addedBy: firstName, ownerId };
        lists.put(list);
      }
      const { added } = addItems(store, list, domains);
      if (!added.length) throw new SandboxError(400, 40002, 'Domains already exist');
      return { status: 201, body: { message: 'Domains blacklisted', payload: added } };
    },
  }),
  seed(store) {
    const lists = store.table(dncListsTable);
    const items = store.table(dncItemsTable);
    for (const { items: own, ...list } of seedData<Array<DncListRecord & { items: Omit<DncItemRecord, 'listId'>[] }>>(
      'dnc-lists',
    )) {
      lists.put(list);
      for (const item of own) items.put({ ...item, listId: list.id });
    }
  },
});
