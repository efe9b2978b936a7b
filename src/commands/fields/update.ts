import { z } from 'zod';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { updateField } from '../../api/resources/fields.js';
import type { UpdateFieldBody } from '../../api/contract/fields.js';

const schema = z.object({
  args: z.tuple([z.string().min(1)]),
  label: z.string().trim().min(1, 'must not be empty').optional(),
  fallbackText: z.string().optional(),
  tags: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    )
    .optional(),
  clearTags: z.boolean().default(false),
});

export default defineVerb({
  usage: 'update <fieldId>',
  summary: 'Change a custom field: label, fallback text, or its tags',
  description:
    '--tags is a full replacement: tags not listed are removed from the field, new ones are created; matching is\n' +
    'case-insensitive (an existing tag keeps its spelling). --clear-tags removes all. Only custom fields can be updated.',
  examples: [
    'fields update cSeats00 --label "Seat count"',
    'fields update cPainPnt --fallback-text "your team" --tags messaging,q4',
    'fields update cPainPnt --clear-tags',
  ],
  configure(cmd) {
    cmd
      .option('--label <label>', 'new display name')
      .option('--fallback-text <text>', 'shown in messages when a prospect has no value')
      .option('--tags <a,b>', 'replace the tags with these')
      .option('--clear-tags', 'remove every tag');
  },
  schema,
  async run(ctx, opts) {
    if (opts.tags !== undefined && opts.clearTags)
      throw new UsageError('--tags and --clear-tags cannot be used together');
    const body: UpdateFieldBody = {};
    if (opts.label !== undefined) body.label = opts.label;
    if (opts.fallbackText !== undefined) body.fallbackText = opts.fallbackText;
    if (opts.tags !== undefined) {
      if (opts.tags.length === 0) throw new UsageError('--tags: no tag given; use --clear-tags to remove them all');
      body.tags = opts.tags;
    }
    if (opts.clearTags) body.tags = [];
    if (Object.keys(body).length === 0)
      throw new UsageError('nothing to change: give --label, --fallback-text, --tags or --clear-tags');
    const [fieldId] = opts.args;
    const message = await updateField(await ctx.http(), fieldId, body);
    ctx.info(`Updated field ${fieldId}${message ? `: ${message}` : ''}.`);
  },
});
