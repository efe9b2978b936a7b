import { dncEndpoints, type DncItemQuery } from '../../api/contract/dnc.js';
import { classifyDncValue } from '../../io/dnc-values.js';
import { route, type Route } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';
import type { DncItemRecord, DncListRecord } from '../model.js';

export const defaultDncPageSize = 25;
export const maxBlacklistDomains = 50;
/** Where the deprecated blacklist endpoint puts its domains. */
const blacklistName = 'Domain blacklist';

function findList(store: Store, id: string): DncListRecord {
  const list = store.state.dncLists.find((l) => l.id === id);
  if (!list) throw new SandboxError(400, 40004, `Failed to fetch DNC list ${id}`);
  return list;
}

function itemMatches(item: DncItemRecord, query: DncItemQuery): boolean {
  if (query.type && query.type !== 'all' && item.type !== query.type) return false;
  return !query.search || item.value.includes(query.search.toLowerCase());
}

function paged<T>(items: T[], query: DncItemQuery): { page: T[]; meta: Record<string, number> } {
  const currentPage = query.page ?? 1;
  const itemsPerPage = query.pageSize ?? defaultDncPageSize;
  const page = items.slice((currentPage - 1) * itemsPerPage, currentPage * itemsPerPage);
  return {
    page,
    meta: {
      totalItems: items.length,
      currentPage,
      itemsPerPage,
      totalPages: Math.ceil(items.length / itemsPerPage),
      itemCount: page.length,
    },
  };
}

const itemView = ({ id, value, type, createdAt }: DncItemRecord) => ({ id, value, type, createdAt });

function listView(list: DncListRecord) {
  const { items, ...rest } = list;
  return { ...rest, numberOfItems: items.length };
}

function addItems(
  store: Store,
  list: DncListRecord,
  values: string[],
): { added: number; duplicates: number; invalid: number } {
  const index = store.dncIndex(list);
  const counts = { added: 0, duplicates: 0, invalid: 0 };
  const now = store.isoNow();
  for (const raw of values) {
    const item = classifyDncValue(raw);
    if (!item.ok) counts.invalid++;
    else if (index.has(item.value)) counts.duplicates++;
    else {
      index.add(item.value);
      list.items.push({
        id: store.id(),
        value: item.value,
        type: item.type,
        createdAt: now,
        addedBy: `${store.state.account.firstName} ${store.state.account.lastName}`,
      });
      counts.added++;
    }
  }
  if (counts.added) list.updatedAt = now;
  return counts;
}

export const dncRoutes: Route[] = [
  route(dncEndpoints.lists, (req, store) => {
    const query = req.query;
    let lists = store.state.dncLists.filter(
      (l) => !query.search || l.name.toLowerCase().includes(query.search.toLowerCase()),
    );
    if (query.sortBy) {
      const key = (l: DncListRecord) => (query.sortBy === 'total' ? l.items.length : Date.parse(l.updatedAt));
      lists = [...lists].sort((a, b) => (key(a) - key(b)) * (query.sort === 'DESC' ? -1 : 1));
    }
    const { page, meta } = paged(lists, query);
    // The real service's shape: {payload: {message, payload: [...]}}.
    return {
      status: 200,
      body: { payload: { message: 'DNC lists fetched successfully', payload: page.map(listView), meta } },
    };
  }),

  route(dncEndpoints.show, (req, store) => {
    const list = findList(store, req.params.dncListId);
    const query = req.query;
    const { page, meta } = paged(
      list.items.filter((i) => itemMatches(i, query)),
      query,
    );
    return {
      status: 200,
      body: {
        payload: {
          message: 'DNC list fetched successfully',
          dncDetails: page.map((i) => ({ ...itemView(i), addedBy: i.addedBy })),
          meta,
        },
      },
    };
  }),

  route(dncEndpoints.search, (req, store) => {
    const query = req.query;
    const matches: Array<{ list: DncListRecord; item: DncItemRecord }> = [];
    for (const list of store.state.dncLists)
      for (const item of list.items) if (itemMatches(item, query)) matches.push({ list, item });
    const { page, meta } = paged(matches, query);
    const grouped = new Map<DncListRecord, DncItemRecord[]>();
    for (const { list, item } of page) grouped.set(list, [...(grouped.get(list) ?? []), item]);
    const dncList = [...grouped].map(([list, items]) => ({ ...listView(list), dncItems: items.map(itemView) }));
    return { status: 200, body: { message: 'DNC items fetched successfully', payload: { dncList, meta } } };
  }),

  route(dncEndpoints.add, (req, store) => {
    const { items, dncListId } = req.body;
    const list = findList(store, dncListId);
    const counts = addItems(store, list, items);
    return { status: 201, body: { message: 'Items added to the DNC list', payload: counts } };
  }),

  route(dncEndpoints.blacklistDomains, (req, store) => {
    const domains = req.body.domains
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean);
    if (domains.length === 0) throw new SandboxError(400, 40001, 'At least one domain is required');
    if (domains.length > maxBlacklistDomains)
      throw new SandboxError(400, 40003, `At most ${maxBlacklistDomains} domains per request`);
    const bad = domains.filter((d) => /[/:@]/.test(d) || !classifyDncValue(d).ok);
    if (bad.length) throw new SandboxError(400, 40001, `Invalid domain format: ${bad.join(', ')}`);
    let list = store.state.dncLists.find((l) => l.name === blacklistName);
    if (!list) {
      const now = store.isoNow();
      list = {
        id: store.id(),
        name: blacklistName,
        createdAt: now,
        updatedAt: now,
        addedBy: store.state.account.firstName,
        ownerId: store.state.account.ownerId,
        items: [],
      };
      store.state.dncLists.push(list);
    }
    const before = new Set(list.items.map((i) => i.value));
    addItems(store, list, domains);
    const added = list.items.map((i) => i.value).filter((v) => !before.has(v));
    if (!added.length) throw new SandboxError(400, 40002, 'Domains already exist');
    return { status: 201, body: { message: 'Domains blacklisted', payload: added } };
  }),
];
