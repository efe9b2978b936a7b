// The flags shared by `dnc show` and `dnc search`: --type, --search, and --all or one page.
import type { Command } from 'commander';
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { dncTypes, maxDncPageSize } from '../../api/contract/dnc.js';
import type { Page } from '../../api/paginate.js';
import { paginate } from '../../api/paginate.js';

export function addItemOptions(cmd: Command): void {
  cmd
    .option('--type <type>', 'all, email or domain', 'all')
    .option('--all', 'every page')
    .option('--page <n>', 'page to show (default 1)')
    .option('--page-size <n>', `items per page (default 25, at most ${maxDncPageSize})`);
}

const count = (flag: string, max?: number) => {
  const base = z.coerce
    .number({ error: `${flag} must be a number` })
    .int(`${flag} must be a whole number`)
    .min(1, `${flag} must be at least 1`);
  return max ? base.max(max, `${flag} is at most ${max}`) : base;
};

export const itemOptionsSchema = {
  type: z.enum(dncTypes, { error: `--type takes ${dncTypes.join(', ')}` }).default('all'),
  all: z.boolean().default(false),
  page: count('--page').optional(),
  pageSize: count('--page-size', maxDncPageSize).optional(),
};

export function pages<T>(
  opts: { all: boolean; page?: number; pageSize?: number },
  fetch: (page: number, pageSize: number) => Promise<Page<T>>,
): AsyncGenerator<T> {
  if (opts.all && opts.page) throw new UsageError('--all and --page cannot be used together');
  if (opts.all) return paginate(fetch, { pageSize: opts.pageSize ?? maxDncPageSize });
  const pageSize = opts.pageSize ?? 25;
  return paginate(fetch, { pageSize, startPage: opts.page ?? 1, limit: pageSize });
}
