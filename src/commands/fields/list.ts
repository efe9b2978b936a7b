import { flag } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { fieldsEndpoints } from '../../api/contract/fields.js';
import { call } from '../../api/call.js';

export default defineVerb({
  agent: { kind: 'read' },
  description: 'Labels are what import headers are matched against (case- and space-insensitively).',
  examples: ['fields list --system', 'fields list --system --json'],
  flags: { system: flag.bool('include system fields (Email, First Name, ...)') },
  async run(ctx, opts) {
    const query = { systemFields: opts.system ? 'true' : 'false' } as const;
    const fields = (await call(await ctx.http(), fieldsEndpoints.list, { query })).payload;
    return listResult(
      fields,
      [
        { header: 'ID', value: (f) => f.id },
        { header: 'LABEL', value: (f) => f.label },
        { header: 'TYPE', value: (f) => f.fieldType ?? '' },
      ],
      { emptyMessage: opts.system ? 'no fields' : 'no custom fields; --system shows the built-in ones' },
    );
  },
});
