import { dateColumn } from '../../cli/render/columns.js';
import { flag } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { paginate } from '../../api/paginate.js';
import { itemCount, listDncLists } from '../../api/resources/dnc.js';

export default defineVerb({
  agent: { kind: 'read' },
  examples: ['dnc lists --search customers --json'],
  flags: { search: flag.text('list names containing this') },
  async run(ctx, opts) {
    const http = await ctx.http();
    const lists = paginate((page, pageSize) => listDncLists(http, { page, pageSize, search: opts.search }), {
      pageSize: 100,
    });
    return listResult(
      lists,
      [
        { header: 'ID', value: (l) => l.id },
        { header: 'NAME', value: (l) => l.name, key: true },
        { header: 'ITEMS', value: (l) => itemCount(l) },
        dateColumn('UPDATED', (l) => l.updatedAt),
        { header: 'ADDED BY', value: (l) => l.addedBy ?? l.createdBy ?? '', drop: 1 },
      ],
      { emptyMessage: 'no DNC lists' },
    );
  },
});
