import { doneResult } from '../../cli/result.js';
import { flag } from '../../cli/flags.js';
import { conflicts, defineVerb } from '../../cli/verb.js';
import { arg } from '../../cli/flags.js';
import { UsageError } from '../../errors.js';
import { fieldsEndpoints } from '../../api/contract/fields.js';
import { callWithBody } from '../../api/call.js';
import type { UpdateFieldBody } from '../../api/contract/fields.js';

export default defineVerb({
  agent: { kind: 'write', idempotent: true },
  args: [arg.text('fieldId')],
  description:
    '--tags is a full replacement: tags not listed are removed from the field, new ones are created; matching is\n' +
    'case-insensitive (an existing tag keeps its spelling). --clear-tags removes all. Only custom fields can be updated.',
  examples: [
    'fields update cPainPnt --fallback-text "your team" --tags messaging,q4',
    'fields update cPainPnt --clear-tags',
  ],
  flags: {
    label: flag.text('new display name', { value: 'label', nonEmpty: true }),
    fallbackText: flag.text('shown in messages when a prospect has no value'),
    tags: flag.commaList('replace the tags with these'),
    clearTags: flag.bool('remove every tag'),
  },
  rules: [conflicts('tags', 'clearTags')],
  async run(ctx, opts) {
    const body: UpdateFieldBody = {};
    if (opts.label !== undefined) body.label = opts.label.trim();
    if (opts.fallbackText !== undefined) body.fallbackText = opts.fallbackText;
    if (opts.tags !== undefined) {
      if (opts.tags.length === 0) throw new UsageError('--tags: no tag given; use --clear-tags to remove them all');
      body.tags = opts.tags;
    }
    if (opts.clearTags) body.tags = [];
    if (Object.keys(body).length === 0)
      throw new UsageError('nothing to change: give --label, --fallback-text, --tags or --clear-tags');
    const [fieldId] = opts.args;
    const answer = await callWithBody(await ctx.http(), fieldsEndpoints.update, { params: { fieldId }, body });
    const { message } = answer.data;
    // --json: the answer as the service sent it.
    return doneResult(`Updated field ${fieldId}${message ? `: ${message}` : ''}.`, answer.body);
  },
});
