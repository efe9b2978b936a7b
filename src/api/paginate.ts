// Walks page/pageSize endpoints as an async iterator: stops at a short page, at the last page the meta names,
// or at the limit. Nothing fetches "everything" without the caller asking for it. While the caller works on one
// page, the next ones are already being asked for (`ahead` of them once the service has said how many pages there
// are, one otherwise), so a long listing does not wait a round trip per page.

export interface Page<T> {
  items: T[];
  /** Total pages when the service says so. */
  totalPages?: number;
}

export interface PaginateOptions {
  pageSize: number;
  startPage?: number;
  limit?: number;
  /** Pages asked for ahead of the one being read (default 1). */
  ahead?: number;
}

/** Each page's items (cut at the limit), in order. */
export async function* paginatePages<T>(
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
  options: PaginateOptions,
): AsyncGenerator<T[]> {
  const { pageSize } = options;
  const first = options.startPage ?? 1;
  const limit = options.limit ?? Infinity;
  // The last page worth asking for: the limit's, narrowed by the service's page count once known.
  let lastPage = first + Math.ceil(limit / pageSize) - 1;
  const asked = new Map<number, Promise<Page<T>>>();
  const ask = (page: number) => {
    if (!asked.has(page)) {
      const answer = fetchPage(page, pageSize);
      answer.catch(() => undefined); // awaited in its turn; a caller that stops early never will
      asked.set(page, answer);
    }
    return asked.get(page)!;
  };
  let remaining = limit;
  let knowsTotal = false;
  try {
    for (let page = first; remaining > 0 && page <= lastPage; page++) {
      const { items, totalPages } = await ask(page);
      asked.delete(page);
      if (totalPages !== undefined) {
        lastPage = Math.min(lastPage, totalPages);
        knowsTotal = true;
      }
      const last = items.length < pageSize || page >= lastPage;
      const ahead = knowsTotal ? (options.ahead ?? 1) : 1;
      if (!last) for (let next = page + 1; next <= Math.min(lastPage, page + ahead); next++) ask(next);
      const kept = items.slice(0, remaining);
      remaining -= kept.length;
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
