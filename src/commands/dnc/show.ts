import { dateColumn } from '../../cli/render/columns.js';
import { arg, flag } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { dncItemsPage } from '../../api/resources/dnc.js';
import { itemFlags, itemRules, itemsOf } from './item-options.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('listId')],
  examples: ['dnc show dncGlobal1 --type domain --all', 'dnc show dncGlobal1 --search optout --page 2 --page-size 100'],
  flags: { ...itemFlags, search: flag.text('values containing this') },
  rules: itemRules,
  async run(ctx, opts) {
    const http = await ctx.http();
    const { items, said } = await itemsOf(opts, ctx.output.format === 'table', (page, pageSize) =>
      dncItemsPage(http, opts.args[0], { page, pageSize, type: opts.type, search: opts.search }),
    );
    return listResult(
      items,
      [
        { header: 'VALUE', value: (i) => i.value, key: true },
        { header: 'TYPE', value: (i) => i.type },
        dateColumn('CREATED', (i) => i.createdAt, { drop: 2 }),
        { header: 'ADDED BY', value: (i) => i.addedBy ?? '', drop: 1 },
      ],
      { emptyMessage: 'no items' },
      { said },
    );
  },
});
