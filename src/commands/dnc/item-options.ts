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

export function pages<T>(
  opts: { all: boolean; page?: number; pageSize?: number },
  fetch: (page: number, pageSize: number) => Promise<Page<T>>,
): AsyncGenerator<T> {
  if (opts.all) return paginate(fetch, { pageSize: opts.pageSize ?? maxDncPageSize });
  const pageSize = opts.pageSize ?? 25;
  return paginate(fetch, { pageSize, startPage: opts.page ?? 1, limit: pageSize });
}
