import { dateColumn } from '../../cli/render/columns.js';
import { arg } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { searchDncPage } from '../../api/resources/dnc.js';
import { itemFlags, itemRules, itemsOf } from './item-options.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('term')],
  examples: ['dnc search ceo@ --type email --all --json'],
  flags: itemFlags,
  rules: itemRules,
  async run(ctx, opts) {
    const http = await ctx.http();
    const { items, said } = await itemsOf(opts, ctx.output.format === 'table', (page, pageSize) =>
      searchDncPage(http, { page, pageSize, type: opts.type, search: opts.args[0] }),
    );
    return listResult(
      items,
      [
        { header: 'LIST', value: (i) => i.listId },
        { header: 'LIST NAME', value: (i) => i.listName, drop: 1 },
        // What was searched for is never cut.
        { header: 'VALUE', value: (i) => i.value, key: true },
        { header: 'TYPE', value: (i) => i.type },
        dateColumn('CREATED', (i) => i.createdAt, { drop: 2 }),
      ],
      { emptyMessage: `nothing matches "${opts.args[0]}"` },
      { said },
    );
  },
});
