import { listResult } from '../../cli/result.js';
import { conflicts, defineVerb } from '../../cli/verb.js';
import { flag } from '../../cli/flags.js';
import { paginate } from '../../api/paginate.js';
import { listWebhooksPage } from '../../api/resources/webhooks.js';

export default defineVerb({
  agent: { kind: 'read' },
  description: 'Ids and names (the list shows no more; `webhooks get ID` shows one whole).',
  examples: ['webhooks list', 'webhooks list --all --ndjson'],
  flags: {
    page: flag.int('page to show (default 1)', { min: 1 }),
    pageSize: flag.int('webhooks per page (default 25)', { min: 1, max: 100 }),
    all: flag.bool('every page, written as it arrives (100 a page)'),
  },
  rules: [conflicts('all', 'page')],
  async run(ctx, opts) {
    const http = await ctx.http();
    const pageSize = opts.pageSize ?? (opts.all ? 100 : 25);
    const webhooks = paginate((page, size) => listWebhooksPage(http, page, size), {
      pageSize,
      startPage: opts.page ?? 1,
      limit: opts.all ? undefined : pageSize,
    });
    return listResult(
      webhooks,
      [
        { header: 'ID', value: (w) => w.id },
        { header: 'NAME', value: (w) => w.name, key: true },
      ],
      { emptyMessage: 'no webhooks' },
    );
  },
});
