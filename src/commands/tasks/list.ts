import { conflicts, defineVerb } from '../../cli/verb.js';
import { flag } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { listTasksPage } from '../../api/resources/tasks.js';
import { paginatePages } from '../../api/paginate.js';
import { filterFlags, sortFlags, toQuery } from './filters.js';
import { taskColumns } from './columns.js';

/** Page size --all uses: spec.md sets no maximum; 100 keeps each answer small. */
export const allPageSize = 100;
/** Pages --all asks for while one is written: round trips overlap instead of adding up. */
const pagesAhead = 4;

export default defineVerb({
  agent: { kind: 'read' },
  description:
    'Statuses: upcoming, dueToday, overdue, completed, skipped. Due dates are relative on a terminal, ISO 8601 otherwise.',
  examples: [
    'tasks list --all --ndjson > tasks.ndjson',
    'tasks list --assignee usBobOps2 --sort-by priority --order asc',
    'tasks list --all --limit 500 --csv',
  ],
  flags: {
    ...filterFlags,
    ...sortFlags,
    page: flag.int('page to show (default 1)', { min: 1 }),
    pageSize: flag.int('tasks per page (default 25)', { min: 1, max: 100 }),
    all: flag.bool('every page, written as it arrives'),
    limit: flag.int('stop after this many tasks', { min: 1 }),
  },
  rules: [conflicts('all', 'page')],
  async run(ctx, opts) {
    const http = await ctx.http();
    const base = {
      ...toQuery(opts),
      sortBy: opts.sortBy,
      sortOrder: opts.order && (opts.order === 'asc' ? ('ASC' as const) : ('DESC' as const)),
    };
    const pageSize = opts.pageSize ?? (opts.all ? allPageSize : 25);
    const columns = taskColumns(ctx.output.format === 'table', ctx.clock.now());
    const options = { emptyMessage: 'no tasks match' };
    if (!opts.all) {
      const number = opts.page ?? 1;
      const page = await listTasksPage(http, { ...base, page: number, pageSize });
      // A person at a terminal learns there is more; a script asked for one page and gets it.
      const more = ctx.output.format === 'table' && (page.totalPages ?? 0) > number;
      return listResult(page.items.slice(0, opts.limit ?? pageSize), columns, options, {
        said: more
          ? `Page ${number} of ${page.totalPages}: --page ${number + 1} for the next, --all for every task.`
          : undefined,
      });
    }
    const pages = paginatePages((page, size) => listTasksPage(http, { ...base, page, pageSize: size }), {
      pageSize,
      limit: opts.limit,
      ahead: pagesAhead,
    });
    return listResult({ pages }, columns, options);
  },
});
