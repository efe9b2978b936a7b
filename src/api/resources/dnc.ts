import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { listChecked } from '../contract/schema.js';
import { KeptMembers, type PlainStringReader } from '../lean-json.js';
import { dncEndpoints, type DncItem, type DncItemQuery, type DncList } from '../contract/dnc.js';
import type { Page } from '../paginate.js';

const totalPages = (meta: Record<string, unknown> | undefined) =>
  typeof meta?.totalPages === 'number' ? meta.totalPages : undefined;

export async function listDncLists(
  http: HttpClient,
  query: { page?: number; pageSize?: number; search?: string } = {},
): Promise<Page<DncList>> {
  const { items, meta } = await call(http, dncEndpoints.lists, { query });
  return { items, totalPages: totalPages(meta) };
}

export async function dncItemsPage(http: HttpClient, listId: string, query: DncItemQuery): Promise<Page<DncItem>> {
  // The real service's schema marks `type` required: always send it.
  const { items, meta } = await call(http, dncEndpoints.show, {
    params: { dncListId: listId },
    query: { type: 'all', ...query },
  });
  return { items, totalPages: totalPages(meta) };
}

/** Reads a list's pages for their values only: reading every value of a list of a million (10,000 pages) spent about
 * a second of its CPU in the whole item schema, and building each item whole some 35 MB of heap. What is built is what
 * listChecked walks (payload wrappers, the list under dncDetails, meta) and each item's value; a value `reader` takes
 * (lean-json.ts) is what it made of it, any other its text. Its query is made here of numbers eachPage chose (never a
 * user's), so it is not checked again ten thousand times. */
export function dncValuesReader<V>(
  reader: PlainStringReader & { read(bytes: Uint8Array, start: number): V | undefined },
  made: (value: unknown) => value is V,
) {
  const endpoint = {
    ...dncEndpoints.show,
    query: undefined,
    response: listChecked<{ value: string | V }>(
      (raw) => {
        const value = (raw as { value?: unknown } | null)?.value;
        return typeof value === 'string' || made(value) ? undefined : 'value must be a string';
      },
      ['dncDetails'],
    ),
  };
  const keepOnly = new KeptMembers(['payload', 'dncDetails', 'meta', 'totalPages', 'value'], { value: reader });
  return async (
    http: HttpClient,
    listId: string,
    query: { page: number; pageSize: number },
  ): Promise<Page<{ value: string | V }>> => {
    const { items, meta } = await call(http, endpoint, {
      params: { dncListId: listId },
      query: { type: 'all', ...query },
      keepOnly,
    });
    return { items, totalPages: totalPages(meta) };
  };
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
