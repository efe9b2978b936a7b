// The flags shared by `dnc show` and `dnc search`: --type, and --all or one page.
import { flag } from '../../cli/flags.js';
import { conflicts } from '../../cli/verb.js';
import { dncTypes, maxDncPageSize } from '../../api/contract/dnc.js';
import type { Page } from '../../api/paginate.js';
import { paginate } from '../../api/paginate.js';

export const itemFlags = {
  type: flag.choice(dncTypes, 'which items', { value: 'type', default: 'all' }),
  all: flag.bool('every page'),
  page: flag.int('page to show (default 1)', { min: 1 }),
  pageSize: flag.int('items per page (default 25)', { min: 1, max: maxDncPageSize }),
};

export const itemRules = [conflicts('all', 'page')];

/** Every page (--all), or the one asked for, with a line for a person at a terminal when there are more: a script
 * asked for one page and gets it (as `tasks list`). */
export async function itemsOf<T>(
  opts: { all: boolean; page?: number; pageSize?: number },
  atTerminal: boolean,
  fetch: (page: number, pageSize: number) => Promise<Page<T>>,
): Promise<{ items: AsyncIterable<T> | T[]; said?: string }> {
  if (opts.all) return { items: paginate(fetch, { pageSize: opts.pageSize ?? maxDncPageSize }) };
  const number = opts.page ?? 1;
  const pageSize = opts.pageSize ?? 25;
  const page = await fetch(number, pageSize);
  // A count read from the service is a hint: only a whole number past this page says there are more.
  const total = page.totalPages;
  const more = atTerminal && Number.isSafeInteger(total) && (total as number) > number;
  return {
    items: page.items.slice(0, pageSize),
    said: more ? `Page ${number} of ${total}: --page ${number + 1} for the next, --all for every value.` : undefined,
  };
}
