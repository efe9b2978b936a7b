import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { writeList } from '../../cli/render/output.js';
import { paginate } from '../../api/paginate.js';
import { itemCount, listDncLists } from '../../api/resources/dnc.js';

export default defineVerb({
  usage: 'lists',
  summary: 'List do-not-contact lists: id, name, items, last update, owner',
  examples: ['dnc lists', 'dnc lists --search customers --json'],
  configure(cmd) {
    cmd.option('--search <text>', 'list names containing this');
  },
  schema: z.object({ args: z.tuple([]), search: z.string().optional() }),
  async run(ctx, opts) {
    const http = await ctx.http();
    const lists = paginate((page, pageSize) => listDncLists(http, { page, pageSize, search: opts.search }), {
      pageSize: 100,
    });
    await writeList(
      ctx,
      lists,
      [
        { header: 'ID', value: (l) => l.id },
        { header: 'NAME', value: (l) => l.name },
        { header: 'ITEMS', value: (l) => itemCount(l) },
        { header: 'UPDATED', value: (l) => l.updatedAt ?? '' },
        { header: 'ADDED BY', value: (l) => l.addedBy ?? l.createdBy ?? '' },
      ],
      { emptyMessage: 'no DNC lists' },
    );
  },
});
