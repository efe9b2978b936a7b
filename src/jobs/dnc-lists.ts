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

/** Every list of the account, or only the one with id `only` (none when it has no such list). */
export async function readDncLists(ctx: JobContext, http: HttpClient, only?: string): Promise<DncLists> {
  const lists: DncLists['lists'] = [];
  let expected = 0;
  for await (const list of paginate((page, pageSize) => listDncLists(http, { page, pageSize }), {
    pageSize: maxDncPageSize,
  })) {
    if (only !== undefined && String(list.id) !== only) continue;
    lists.push({ id: String(list.id), name: visible(list.name ?? String(list.id)) });
    expected += itemCount(list) ?? 0;
  }
  if (lists.length > maxDncLists)
    throw new UsageError(
      `the account has ${formatCount(lists.length)} do-not-contact lists; the check holds at most ${formatCount(maxDncLists)}`,
      'Give --no-dnc-check to import without it.',
    );
  const set = new DncSet(expected);
  let values = 0;
  for (const [number, list] of lists.entries()) {
    const pages = paginatePages((page, pageSize) => dncValuesPage(http, list.id, { page, pageSize }), {
      pageSize: maxDncPageSize,
      ahead: pagesAhead,
    });
    for await (const items of pages) {
      for (const item of items) {
        const value = item.value.trim().toLowerCase();
        if (value) set.add(value, number);
      }
      values += items.length;
      ctx.emit({
        type: 'progress',
        text: `Reading do-not-contact lists: ${formatCount(values)} of ${formatCount(expected)} values`,
      });
    }
  }
  return { set, lists, values };
}
