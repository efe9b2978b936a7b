// The account's do-not-contact lists, read once through the DNC endpoints into a DncSet before an import sends a row:
// every list, every page of it (several pages under way at once), each value trimmed and lower-cased.
import type { HttpClient } from '../api/http.js';
import { maxDncPageSize } from '../api/contract/dnc.js';
import { paginate, paginatePages } from '../api/paginate.js';
import { dncValuesPage, itemCount, listDncLists } from '../api/resources/dnc.js';
import { formatCount } from '../format.js';
import { DncSet, maxDncLists } from '../io/import/dnc-set.js';
import { visible } from '../visible-text.js';
import { UsageError } from '../errors.js';
import { hashed, hashText } from '../io/text-hash.js';
import { CachedListWriter, readCachedList } from './dnc-cache.js';
import { jobBinding } from './journal.js';
import { join } from 'node:path';
import type { JobContext } from './context.js';

/** Pages of a list asked for at once: the service answers a page of 100 in well under a millisecond, the round trip
 * is most of the wait. */
const pagesAhead = 8;

export interface DncLists {
  set: DncSet;
  /** Each list's id and name (shown: control characters made visible), by its number in the set. */
  lists: Array<{ id: string; name: string }>;
  /** Values read in all (a value on two lists counts twice). */
  values: number;
}

interface ListInfo {
  id: string;
  name: string;
  /** The listing's size and last change: what a cached copy must match. */
  numberOfItems?: number;
  updatedAt?: string;
}

/** Every list of the account, or only the one with id `only` (none when it has no such list). With `ctx.configDir`,
 * a list unchanged since an earlier run (dnc-cache.ts) is taken from there instead of being read page by page. */
export async function readDncLists(ctx: JobContext, http: HttpClient, only?: string): Promise<DncLists> {
  const lists: ListInfo[] = [];
  let expected = 0;
  for await (const list of paginate((page, pageSize) => listDncLists(http, { page, pageSize }), {
    pageSize: maxDncPageSize,
  })) {
    if (only !== undefined && String(list.id) !== only) continue;
    const numberOfItems = itemCount(list);
    const updatedAt = typeof list.updatedAt === 'string' ? list.updatedAt : undefined;
    lists.push({ id: String(list.id), name: visible(list.name ?? String(list.id)), numberOfItems, updatedAt });
    expected += numberOfItems ?? 0;
  }
  if (lists.length > maxDncLists)
    throw new UsageError(
      `the account has ${formatCount(lists.length)} do-not-contact lists; the check holds at most ${formatCount(maxDncLists)}`,
      'Give --no-dnc-check to import without it.',
    );
  const set = new DncSet(expected);
  const progress = { values: 0, expected };
  const binding = jobBinding(http);
  for (const [number, list] of lists.entries()) {
    const key =
      ctx.configDir && list.numberOfItems !== undefined && list.updatedAt
        ? { ...binding, listId: list.id, numberOfItems: list.numberOfItems, updatedAt: list.updatedAt }
        : undefined;
    const dir = ctx.configDir && join(ctx.configDir, 'dnc-cache');
    const cached = key && dir ? readCachedList(dir, key, ctx.clock.now()) : undefined;
    if (cached) {
      for (let i = 0; i < cached.length; i += 2) set.addHash(cached[i]!, cached[i + 1]!, number);
      progress.values += cached.length / 2;
    } else
      await readList(
        ctx,
        http,
        list.id,
        number,
        set,
        progress,
        key && dir ? new CachedListWriter(dir, key) : undefined,
      );
  }
  return { set, lists: lists.map(({ id, name }) => ({ id, name })), values: progress.values };
}

/** One list, page by page, into the set (and, when it may be cached, into its cache file). */
async function readList(
  ctx: JobContext,
  http: HttpClient,
  listId: string,
  number: number,
  set: DncSet,
  progress: { values: number; expected: number },
  cache: CachedListWriter | undefined,
): Promise<void> {
  const pages = paginatePages((page, pageSize) => dncValuesPage(http, listId, { page, pageSize }), {
    pageSize: maxDncPageSize,
    ahead: pagesAhead,
  });
  try {
    for await (const items of pages) {
      for (const item of items) {
        const value = item.value.trim().toLowerCase();
        if (!value) continue;
        hashText(value);
        set.addHash(hashed[0]!, hashed[1]!, number);
        cache?.push(hashed[0]!, hashed[1]!);
      }
      progress.values += items.length;
      ctx.emit({
        type: 'progress',
        text: `Reading do-not-contact lists: ${formatCount(progress.values)} of ${formatCount(progress.expected)} values`,
      });
    }
  } catch (error) {
    cache?.abort();
    throw error;
  }
  cache?.commit(ctx.clock.now());
}
