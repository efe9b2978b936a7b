import { resolve } from 'node:path';
import { arg, flag, hidden } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { dncTypes, maxDncPageSize } from '../../api/contract/dnc.js';
import { paginate } from '../../api/paginate.js';
import { dncItemsPage } from '../../api/resources/dnc.js';
import { csvResult } from '../../cli/result.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('listId')],
  description:
    'Cells a spreadsheet would run as a formula (starting with =, +, -, @) are prefixed with a quote; the global\n' +
    '--csv-raw keeps them as they are.\n' +
    'With -o the file appears only when complete (written beside it, then renamed), so Ctrl-C never leaves half of it.\n' +
    'On stdout, --json and --ndjson give each item as an object with the same keys as the CSV header.',
  examples: ['dnc export dncGlobal1 --type domain -o domains.csv', 'dnc export dncGlobal1 --csv-raw'],
  flags: {
    type: flag.choice(dncTypes, 'which items', { value: 'type', default: 'all' }),
    output: flag.text('write to a file instead of stdout (- is stdout)', { value: 'file', short: '-o' }),
    // The global --csv-raw says it for every command; --raw is kept for scripts written before.
    raw: hidden(flag.bool('do not neutralise formula-like cells')),
  },
  async run(ctx, opts) {
    const http = await ctx.http();
    const items = paginate((page, pageSize) => dncItemsPage(http, opts.args[0], { page, pageSize, type: opts.type }), {
      pageSize: maxDncPageSize,
    });
    return csvResult({
      header: ['value', 'type', 'createdAt', 'addedBy'],
      rows: (async function* () {
        for await (const item of items) yield [item.value, item.type, item.createdAt, item.addedBy];
      })(),
      file: opts.output && opts.output !== '-' ? resolve(ctx.cwd, opts.output) : undefined,
      neutraliseFormulas: !opts.raw && !ctx.output.csvRaw,
    });
  },
});
