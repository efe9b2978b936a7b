import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { createListWriter } from '../../cli/render/output.js';
import { listTasksPage } from '../../api/resources/tasks.js';
import { paginate } from '../../api/paginate.js';
import { addFilterOptions, filterSchema, sortSchema, toQuery } from './filters.js';
import { taskColumns } from './columns.js';

/** Page size --all uses: spec.md sets no maximum; 100 keeps each answer small. */
export const allPageSize = 100;

const count = (flag: string) =>
  z.coerce
    .number({ error: `${flag} must be a number` })
    .int(`${flag} must be a whole number`)
    .min(1, `${flag} must be at least 1`);

export default defineVerb({
  usage: 'list',
  summary: 'List tasks with any filter of the API; --all walks every page as it arrives',
  description:
    'Statuses: upcoming, dueToday, overdue, completed, skipped. Due dates are relative on a terminal, ISO 8601 otherwise.',
  examples: [
    'tasks list --status overdue --type call',
    'tasks list --all --ndjson > tasks.ndjson',
    'tasks list --assignee usBobOps2 --sort-by priority --order asc',
    'tasks list --all --limit 500 --csv',
  ],
  configure(cmd) {
    addFilterOptions(cmd);
    cmd
      .option('--sort-by <field>', 'priority, completedAt, skippedAt or dueDate')
      .option('--order <order>', 'ASC or DESC')
      .option('--page <n>', 'page to show (default 1)')
      .option('--page-size <n>', 'tasks per page (default 25)')
      .option('--all', 'every page, written as it arrives')
      .option('--limit <n>', 'stop after this many tasks');
  },
  schema: z.object({
    args: z.tuple([]),
    ...filterSchema(),
    ...sortSchema,
    page: count('--page').optional(),
    pageSize: count('--page-size').optional(),
    all: z.boolean().default(false),
    limit: count('--limit').optional(),
  }),
  async run(ctx, opts) {
    if (opts.all && opts.page) throw new UsageError('--all and --page cannot be used together');
    const http = await ctx.http();
    const base = { ...toQuery(opts), sortBy: opts.sortBy, sortOrder: opts.order };
    const pageSize = opts.pageSize ?? (opts.all ? allPageSize : 25);
    const tasks = opts.all
      ? paginate((page, size) => listTasksPage(http, { ...base, page, pageSize: size }), {
          pageSize,
          limit: opts.limit,
        })
      : paginate((page, size) => listTasksPage(http, { ...base, page, pageSize: size }), {
          pageSize,
          startPage: opts.page ?? 1,
          limit: Math.min(opts.limit ?? pageSize, pageSize),
        });
    const writer = createListWriter(ctx, taskColumns(ctx.output.format === 'table', ctx.clock.now()), {
      emptyMessage: 'no tasks match',
    });
    for await (const task of tasks) await writer.write(task);
    await writer.end();
  },
});
