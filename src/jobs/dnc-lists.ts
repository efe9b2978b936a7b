// The account's do-not-contact lists, read once through the DNC endpoints into a DncSet before an import sends a row:
// every list, every page of it (several pages under way at once; or its copy from an earlier run, dnc-cache.ts), each
// value in the form lookups compare (listValueKey).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { HttpClient } from '../api/http.js';
import { maxDncPageSize } from '../api/contract/dnc.js';
import { paginate, paginatePages } from '../api/paginate.js';
import { dncValuesReader, itemCount, listDncLists } from '../api/resources/dnc.js';
import { formatCount } from '../format.js';
import { DncSet, maxDncLists } from '../io/import/dnc-set.js';
import { visible } from '../visible-text.js';
import { OutreachError, UsageError } from '../errors.js';
import { hashed, hashText } from '../io/text-hash.js';
import { listValueKey } from '../io/dnc-values.js';
import { ListValueHash, listValueReader } from '../io/list-value-hash.js';
import { CachedListWriter, readCachedList } from './dnc-cache.js';
import { collectGarbage } from '../collect-garbage.js';
import { PageRamp } from './page-ramp.js';
import { jobBinding } from './journal.js';
import type { JobContext } from './context.js';

/** Values read page by page after which the read's garbage is collected at once (collect-garbage.ts): a thousand
 * pages or more, where the collection's 30-50 ms are lost in the read's seconds. */
const collectAfterValues = 100_000;
/** Values read between two reports of the count: ten pages (a report a page cost some 40 ms of a million values'
 * read, in strings for a spinner that redraws a dozen times a second). */
const reportEvery = 1_000;

/** A page of a list, its values in their lookup form as hashes (list-value-hash.ts), any other as text. */
const valuesPage = dncValuesReader(listValueReader, (value): value is ListValueHash => value instanceof ListValueHash);

export interface DncLists {
  set: DncSet;
  /** Each list's id and name (as the service has it: made visible where written into text), by its number. */
  lists: Array<{ id: string; name: string }>;
  /** Values read in all (a value on two lists counts twice). */
  values: number;
  /** What identifies the lists' state (readDncListing). */
  fingerprint: string;
}

export interface ListInfo {
  id: string;
  name: string;
  /** The listing's size and last change: what a cached copy must match. */
  numberOfItems?: number;
  updatedAt?: string;
}

/** The lists as the listing gives them (every one, or only `only`), and what identifies that state of them: a digest
 * of each list's id, size and last change, which an import's journal records (a resume must check rows against the
 * lists its first run checked them against). */
export async function readDncListing(
  http: HttpClient,
  only?: string,
): Promise<{ lists: ListInfo[]; expected: number; fingerprint: string }> {
  const lists: ListInfo[] = [];
  let expected = 0;
  for await (const list of paginate((page, pageSize) => listDncLists(http, { page, pageSize }), {
    pageSize: maxDncPageSize,
  })) {
    if (only !== undefined && String(list.id) !== only) continue;
    // A size read from the service is a hint: one that is not a whole number of values is no size at all.
    const count = itemCount(list);
    const numberOfItems = count !== undefined && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
    const updatedAt = typeof list.updatedAt === 'string' ? list.updatedAt : undefined;
    // As the service has it (JSON escapes it); made visible where it is written into text.
    lists.push({ id: String(list.id), name: list.name ?? String(list.id), numberOfItems, updatedAt });
    expected += numberOfItems ?? 0;
  }
  if (lists.length > maxDncLists)
    throw new UsageError(
      `the account has ${formatCount(lists.length)} do-not-contact lists; the check holds at most ${formatCount(maxDncLists)}`,
      'Give --no-dnc-check to import without it.',
    );
  const state = lists.map((l) => [l.id, l.numberOfItems ?? null, l.updatedAt ?? null]);
  const fingerprint = createHash('sha256').update(JSON.stringify(state)).digest('hex').slice(0, 32);
  return { lists, expected, fingerprint };
}

/** Every list of the account (as `listing` gives them, else read now), or only the one with id `only`. With
 * `ctx.configDir`, a list unchanged since an earlier run (dnc-cache.ts) is taken from there instead of being read page
 * by page. */
export async function readDncLists(
  ctx: JobContext,
  http: HttpClient,
  options: { only?: string; listing?: Awaited<ReturnType<typeof readDncListing>>; cache?: boolean } = {},
): Promise<DncLists> {
  const { lists, expected, fingerprint } = options.listing ?? (await readDncListing(http, options.only));
  // Without the copies (--no-dnc-cache), each list is read from the service, and its copy written afresh.
  const fromCopy = options.cache !== false;
  const set = new DncSet(expected);
  const progress = { values: 0, expected };
  const binding = jobBinding(http);
  let fromService = 0;
  for (const [number, list] of lists.entries()) {
    const key =
      ctx.configDir && list.numberOfItems !== undefined && list.updatedAt
        ? { ...binding, listId: list.id, numberOfItems: list.numberOfItems, updatedAt: list.updatedAt }
        : undefined;
    const dir = ctx.configDir && join(ctx.configDir, 'dnc-cache');
    const cached = key && dir && fromCopy ? readCachedList(dir, key, ctx.clock.now()) : undefined;
    if (cached) {
      for (let i = 0; i < cached.length; i += 2) set.addHash(cached[i]!, cached[i + 1]!, number);
      progress.values += key!.numberOfItems; // as a read from the service counts them (stored or not)
    } else {
      const before = progress.values;
      await readList(ctx, http, list, number, set, progress, key && dir ? CachedListWriter.open(dir, key) : undefined);
      fromService += progress.values - before;
    }
  }
  // What the pages left behind goes now, not on top of the import that follows.
  if (fromService >= collectAfterValues) await collectGarbage();
  return { set, lists: lists.map(({ id, name }) => ({ id, name })), values: progress.values, fingerprint };
}

/** One list, page by page, into the set (and, when it may be cached, into its cache file). */
async function readList(
  ctx: JobContext,
  http: HttpClient,
  list: ListInfo,
  number: number,
  set: DncSet,
  progress: { values: number; expected: number },
  cache: CachedListWriter | undefined,
): Promise<void> {
  let read = 0;
  let reported = -1;
  const report = () => {
    reported = progress.values;
    ctx.emit({
      type: 'progress',
      text: `Reading do-not-contact lists: ${formatCount(progress.values)} of ${formatCount(progress.expected)} values`,
    });
  };
  const take = (items: Array<{ value: string | ListValueHash }>) => {
    for (const { value } of items) {
      // A value in its lookup form (nearly every one) came hashed as it was read; any other is put in it first.
      if (value instanceof ListValueHash) {
        set.addHash(value.hi, value.lo, number);
        cache?.push(value.hi, value.lo);
        continue;
      }
      const key = listValueKey(value);
      if (!key) {
        cache?.skip(); // neither an email nor a domain: it stops no one
        continue;
      }
      hashText(key);
      set.addHash(hashed[0]!, hashed[1]!, number);
      cache?.push(hashed[0]!, hashed[1]!);
    }
    progress.values += items.length;
    read += items.length;
    if (progress.values - reported >= reportEvery) report();
  };
  try {
    await eachPage(
      (page, pageSize) => valuesPage(http, list.id, { page, pageSize }),
      take,
      list.numberOfItems,
      () => ctx.clock.now(),
    );
  } catch (error) {
    cache?.abort();
    throw error;
  }
  if (reported !== progress.values) report();
  // Fewer values than the list says it holds: its pages ended early (a page cut short, a page size the service caps
  // lower). Checking against part of a list would send rows on the rest: stop instead.
  if (list.numberOfItems !== undefined && read < list.numberOfItems) {
    cache?.abort();
    throw new OutreachError(
      `do-not-contact list "${visible(list.name)}" (${list.id}) says it holds ${formatCount(list.numberOfItems)} values, ` +
        `but its pages gave ${formatCount(read)}; nothing was checked against it`,
      'Try again; if it persists, `outreach dnc export` shows what the service gives. --no-dnc-check skips the check.',
    );
  }
  cache?.commit(ctx.clock.now());
}

/** Every page of a list, each handed to `take` as it arrives, in any order (a set does not care), several under way
 * at once once the first page has said how many there are (8, or as many as read faster: page-ramp.ts, by `now`). A
 * page that waited for the ones before it outlived the young generation: reading a million values promoted some 80 MB
 * of parsed pages to the old one, which grew to four times its size between collections; taken on arrival, they die
 * young. A short page ends the list (the pages after it are not asked for); without a page count (or with one that is
 * not), the pages are read in order until one is short. */
export async function eachPage<T>(
  fetchPage: (page: number, pageSize: number) => Promise<{ items: T[]; totalPages?: number }>,
  take: (items: T[]) => void,
  /** The values the listing said the list holds, when it did: the pages asked for stay within twice as many. */
  expected?: number,
  /** The clock the pace of the pages is measured by; without it, 8 are under way throughout. */
  now?: () => number,
): Promise<void> {
  const pageSize = maxDncPageSize;
  const first = await fetchPage(1, pageSize);
  take(first.items);
  if (first.items.length < pageSize) return;
  // A page count read from the service is a hint: one that is no whole number of pages is none.
  const said = first.totalPages;
  if (said === undefined || !Number.isSafeInteger(said) || said < 1) {
    const untilShort = async (page: number) => ({ items: (await fetchPage(page, pageSize)).items });
    for await (const items of paginatePages(untilShort, { pageSize, startPage: 2 })) take(items);
    return;
  }
  // A count from the service is believed up to twice the pages the listing's size needs (a list may grow meanwhile;
  // a service that ignores page= and counts on would be asked forever).
  let last = expected === undefined ? said : Math.min(said, 2 * Math.ceil(expected / pageSize) + 10);
  let next = 2;
  // A failed page stops the asking; it is thrown at the end unless a short page before it ended the list (a service
  // may answer pages past the end with an error): then nothing was missed.
  const failures: Array<{ page: number; error: unknown }> = [];
  // Without a clock, one that stands still: no pace is ever measured, and 8 stay under way.
  const ramp = new PageRamp(now ?? (() => 0));
  let running = 0;
  const workers: Array<Promise<void>> = [];
  const more = () => {
    while (running < ramp.target && !failures.length && next <= last) {
      running++;
      workers.push(worker());
    }
  };
  // A worker asks for the next page until none is left, one fails, or the ramp wants fewer under way.
  const worker = async () => {
    while (!failures.length && next <= last && running <= ramp.target) {
      const page = next++;
      try {
        const { items } = await fetchPage(page, pageSize);
        if (items.length < pageSize) last = Math.min(last, page);
        take(items);
        ramp.pageDone();
        more();
      } catch (error) {
        failures.push({ page, error });
      }
    }
    running--;
  };
  more();
  // Every worker has stopped before this returns or throws: no request of this list outlives the read.
  while (workers.length) await Promise.all(workers.splice(0));
  const missed = failures.find((f) => f.page <= last);
  if (missed) throw missed.error;
}
