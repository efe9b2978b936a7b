import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import type { Column } from '../../cli/render/columns.js';
import { inboxEndpoints } from '../../api/contract/inbox.js';
import { call } from '../../api/call.js';
import { sentimentName, type InboxCategory } from '../../api/contract/inbox.js';

export const categoryColumns: Column<InboxCategory>[] = [
  { header: 'KEY', value: (c) => c.key },
  { header: 'NAME', value: (c) => c.name, key: true },
  { header: 'DEFAULT', value: (c) => c.isDefault ?? false },
  { header: 'SENTIMENT', value: (c) => sentimentName(c.sentiment) },
];

export default defineVerb({
  agent: { kind: 'read' },
  description:
    'Sentiment is shown as Positive, Negative or Neutral whether the service sends words or the codes 1, 2, 3.\n' +
    'With --json the records are printed as the service sent them.',
  examples: ['inbox categories --json', 'inbox categories | cut -f1'],
  async run(ctx) {
    const http = await ctx.http();
    const categories = (await call(http, inboxEndpoints.listCategories)).payload;
    return listResult(categories, categoryColumns, { emptyMessage: 'no inbox categories' });
  },
});
