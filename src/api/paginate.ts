// The one pager: walks page/pageSize endpoints as an async iterator. It stops at the last page (a short one, one the
// service says has no next, the last its meta names or the last it serves), or at the limit (the caller's, or how
// many the service will show in all). Nothing fetches "everything" without the caller asking for it. While the caller works on one
// page, the next ones are already being asked for (`ahead` of them once the service has said how many pages there
// are, one otherwise), so a long listing does not wait a round trip per page.

export interface Page<T> {
  items: T[];
  /** Total pages when the service says so. */
  totalPages?: number;
  /** Whether a page follows, when the service says so (otherwise a short page is the last). */
  hasNextPage?: boolean;
  /** The most items the service shows in all (its total, a display limit): the walk ends there. */
  reachable?: number;
}

export interface PaginateOptions {
  pageSize: number;
  startPage?: number;
  limit?: number;
  /** Pages asked for ahead of the one being read (default 1). */
  ahead?: number;
  /** The last page the service serves. */
  maxPage?: number;
}

/** Each page's items (cut at the limit), in order; `seen` hears of each page as its items are handed over. */
export async function* paginatePages<P extends Page<unknown>>(
  fetchPage: (page: number, pageSize: number) => Promise<P>,
  options: PaginateOptions,
  seen?: (page: number, answer: P, kept: number) => void,
): AsyncGenerator<P['items']> {
  const { pageSize } = options;
  const first = options.startPage ?? 1;
  let cap = options.limit ?? Infinity;
  // The last page worth asking for: the limit's, narrowed by the service's page count once known.
  let lastPage = Math.min(options.maxPage ?? Infinity, first + Math.ceil(cap / pageSize) - 1);
  const asked = new Map<number, Promise<P>>();
  const ask = (page: number) => {
    if (!asked.has(page)) {
      const answer = fetchPage(page, pageSize);
      answer.catch(() => undefined); // awaited in its turn; a caller that stops early never will
      asked.set(page, answer);
    }
    return asked.get(page)!;
  };
  let taken = 0;
  let knowsTotal = false;
  try {
    for (let page = first; taken < cap && page <= lastPage; page++) {
      const answer = await ask(page);
      asked.delete(page);
      const { items, totalPages, hasNextPage, reachable } = answer;
      if (reachable !== undefined) cap = Math.min(cap, reachable);
      if (totalPages !== undefined) {
        lastPage = Math.min(lastPage, totalPages);
        knowsTotal = true;
      }
      const kept = items.slice(0, Math.max(0, cap - taken)) as P['items'];
      taken += kept.length;
      // The pages still worth asking for, now that the service said how many it shows: none past them.
      if (cap !== Infinity) lastPage = Math.min(lastPage, page + Math.ceil((cap - taken) / pageSize));
      seen?.(page, answer, kept.length);
      const noNext = hasNextPage === undefined ? items.length < pageSize : !hasNextPage || !items.length;
      const last = noNext || page >= lastPage || taken >= cap;
      const ahead = knowsTotal ? (options.ahead ?? 1) : Math.min(1, options.ahead ?? 1);
      if (!last) for (let next = page + 1; next <= Math.min(lastPage, page + ahead); next++) ask(next);
      if (kept.length) yield kept;
      if (last) return;
    }
  } finally {
    await Promise.allSettled(asked.values());
  }
}

export async function* paginate<T>(
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
  options: PaginateOptions,
): AsyncGenerator<T> {
  for await (const items of paginatePages(fetchPage, options)) yield* items;
}
