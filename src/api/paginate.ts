// Walks page/pageSize endpoints as an async iterator: stops at a short page, at the last page the meta names,
// or at the limit. Nothing fetches "everything" without the caller asking for it.

export interface Page<T> {
  items: T[];
  /** Total pages when the service says so. */
  totalPages?: number;
}

export async function* paginate<T>(
  fetchPage: (page: number, pageSize: number) => Promise<Page<T>>,
  options: { pageSize: number; startPage?: number; limit?: number },
): AsyncGenerator<T> {
  let remaining = options.limit ?? Infinity;
  for (let page = options.startPage ?? 1; remaining > 0; page++) {
    const { items, totalPages } = await fetchPage(page, options.pageSize);
    for (const item of items.slice(0, remaining)) yield item;
    remaining -= items.length;
    if (items.length < options.pageSize || (totalPages !== undefined && page >= totalPages)) return;
  }
}
