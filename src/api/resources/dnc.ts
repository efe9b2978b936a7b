import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { isObject } from '../contract/envelope.js';
import { ApiError } from '../../errors.js';
import { dncEndpoints, dncListSchema, type DncItem, type DncItemQuery, type DncList } from '../contract/dnc.js';
import type { Page } from '../paginate.js';

/** GET /v1/dnc answers {payload: {message, payload: [...]}} in the real service; a payload array or payload.dncList is read too. */
export async function listDncLists(
  http: HttpClient,
  query: { page?: number; pageSize?: number; search?: string } = {},
): Promise<Page<DncList>> {
  let node: unknown = await call(http, dncEndpoints.lists, { query });
  let meta: Record<string, unknown> | undefined;
  for (let depth = 0; depth < 3 && isObject(node); depth++) {
    if (isObject(node.meta)) meta = node.meta;
    node = Array.isArray(node.dncList) ? node.dncList : node.payload;
  }
  if (!Array.isArray(node))
    throw new ApiError('unexpected answer from GET /v1/dnc: no list of lists in it', {
      status: 200,
      method: 'GET',
      path: '/v1/dnc',
    });
  return {
    items: node.map((raw) => dncListSchema.parse(raw)),
    totalPages: typeof meta?.totalPages === 'number' ? meta.totalPages : undefined,
  };
}

export async function dncItemsPage(http: HttpClient, listId: string, query: DncItemQuery): Promise<Page<DncItem>> {
  // The real service's schema marks `type` required: always send it.
  const body = await call(http, dncEndpoints.show, { params: { dncListId: listId }, query: { type: 'all', ...query } });
  return { items: body.payload.dncDetails, totalPages: body.payload.meta?.totalPages };
}

export interface FoundItem extends DncItem {
  listId: string;
  listName: string;
}

export async function searchDncPage(http: HttpClient, query: DncItemQuery): Promise<Page<FoundItem>> {
  const body = await call(http, dncEndpoints.search, { query: { type: 'all', ...query } });
  const items = body.payload.dncList.flatMap((list) =>
    (list.dncItems ?? []).map((item) => ({ ...item, listId: list.id, listName: list.name ?? '' })),
  );
  return { items, totalPages: body.payload.meta?.totalPages };
}

export async function addDncItems(http: HttpClient, listId: string, items: string[]): Promise<unknown> {
  // dncListId always as a string: the API declares it so, even where ids look numeric.
  return call(http, dncEndpoints.add, { body: { items, dncListId: String(listId) } });
}

export async function blacklistDomains(http: HttpClient, domains: string[]): Promise<string[]> {
  const body = await call(http, dncEndpoints.blacklistDomains, { body: { domains: domains.join(',') } });
  return body.payload ?? [];
}

/** numberOfItems (spec.md) or total, a string in the real service. */
export function itemCount(list: DncList): number | undefined {
  const raw = list.numberOfItems ?? list.total;
  return raw === undefined ? undefined : Number(raw);
}
