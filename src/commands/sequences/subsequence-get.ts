import { recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { arg } from '../../cli/flags.js';
import { sequencesEndpoints, type SubsequenceSettings } from '../../api/contract/sequences.js';
import { call } from '../../api/call.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  agent: { kind: 'read' },
  // Parent first, as in `subsequence update SEQ SUB`; the service needs only the subsequence, so `get SUB` alone works.
  args: [arg.text('sequenceId'), arg.optional('subsequenceId')],
  description:
    'What `subsequence update` sets: schedule id, entry delay in days and conditions (name, operation, value).\n' +
    'Give the sequence and the subsequence, as `update` takes them; the subsequence alone is enough.\n' +
    'The answer is not documented: --json prints it as the service sent it.',
  examples: ['sequences subsequence get sqOnbrd1 ssReplied', 'sequences subsequence get ssReplied --json'],
  async run(ctx, opts) {
    const params = { subsequenceId: opts.args[1] ?? opts.args[0] };
    const settings = (await call(await ctx.http(), sequencesEndpoints.subsequenceSettings, { params })).payload;
    // The service needs only the subsequence; a parent given is checked against the one the answer names, if any.
    const parent = (settings as { sequenceId?: unknown }).sequenceId;
    if (opts.args[1] && typeof parent === 'string' && parent !== opts.args[0])
      throw new UsageError(`subsequence ${opts.args[1]} is in sequence ${parent}, not ${opts.args[0]}`);
    return recordResult<SubsequenceSettings>(settings, [
      { header: 'SCHEDULE', value: (s) => s.scheduleId },
      { header: 'DELAY DAYS', value: (s) => s.firstStepRelativeDays },
      {
        header: 'CONDITIONS',
        value: (s) =>
          (s.conditions ?? [])
            .map((c) =>
              [c.name, c.operation, (c as { value?: unknown }).value].filter((v) => v !== undefined).join(':'),
            )
            .join(', '),
      },
    ]);
  },
});
