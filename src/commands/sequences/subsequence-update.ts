import { doneResult } from '../../cli/result.js';
import { arg, didYouMean, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { sequencesEndpoints } from '../../api/contract/sequences.js';
import { callWithBody } from '../../api/call.js';
import type { Condition, SubsequenceUpdate } from '../../api/contract/sequences.js';

/** The operations the public documentation shows (real-service-notes.md: is, greater than, is any); the whole matrix
 * is not public, so anything else is refused here rather than by a 400 after the request. */
const operations = ['is', 'greater than', 'is any'] as const;

/** "Email Open Count:greater than:3" -> {name, operation, value: 3}; the value is optional ("Link Click:is any"). */
export function parseCondition(text: string): Condition {
  const parts = text.split(':').map((p) => p.trim());
  if (parts.length < 2 || parts.length > 3 || !parts[0] || !parts[1])
    throw new UsageError(`--condition "${text}": write it as "name:operation:value" (the value may be left out)`);
  const [name, given, raw] = parts as [string, string, string | undefined];
  const operation = operations.find((known) => known === given.toLowerCase().replace(/\s+/g, ' '));
  if (!operation) {
    throw new UsageError(
      `--condition "${text}": the operation must be one of ${operations.join(', ')}, not "${given}"` +
        didYouMean(given, operations),
      'Others are not documented; `outreach api PATCH ...` sends any body as it is.',
    );
  }
  if (raw === undefined || raw === '') return { name, operation };
  if (raw === 'true' || raw === 'false') return { name, operation, value: raw === 'true' };
  if (/^-?\d+(\.\d+)?$/.test(raw)) return { name, operation, value: Number(raw) };
  throw new UsageError(`--condition "${text}": the value must be a number or true/false`);
}

export default defineVerb({
  agent: { kind: 'write', idempotent: true },
  args: [arg.text('sequenceId'), arg.text('subsequenceId')],
  description:
    '--condition replaces the whole set of conditions (repeat it for several). An empty set is refused here: the API\n' +
    'would silently ignore it and keep the old conditions. The operation is one the service documents: is, greater than\n' +
    'or is any (any case). --delay-days is at least 1.',
  examples: [
    'sequences subsequence update sqOnbrd1 ssReplied --condition "Replied:is:true" --condition "Email Open Count:greater than:3"',
    'sequences subsequence update sqOnbrd1 ssReplied --schedule 58965',
  ],
  flags: {
    schedule: flag.int('schedule id (a number)', { value: 'id', min: 1 }),
    delayDays: flag.int('days after the trigger before the first step', { min: 1 }),
    condition: flag.list('a condition; together they replace the set', { value: 'name:operation:value' }),
    clearConditions: flag.bool('refused: the API cannot clear conditions'),
  },
  async run(ctx, opts) {
    const emptySet = opts.clearConditions || (opts.condition.length > 0 && opts.condition.every((c) => !c.trim()));
    if (emptySet)
      throw new UsageError(
        'an empty set of conditions is refused: the API would silently ignore it and keep the current conditions',
        'Give at least one --condition "name:operation:value".',
      );
    const body: SubsequenceUpdate = {};
    if (opts.schedule !== undefined) body.scheduleId = opts.schedule;
    if (opts.delayDays !== undefined) body.firstStepRelativeDays = opts.delayDays;
    if (opts.condition.length) body.conditions = opts.condition.map(parseCondition);
    if (!Object.keys(body).length)
      throw new UsageError('nothing to change: give --schedule, --delay-days or --condition');
    const params = { sequenceId: opts.args[0], subsequenceId: opts.args[1] };
    const answer = await callWithBody(await ctx.http(), sequencesEndpoints.updateSubsequence, { params, body });
    const { message } = answer.data;
    // --json: the answer as the service sent it.
    return doneResult(`Updated subsequence ${opts.args[1]}${message ? `: ${message}` : ''}.`, answer.body);
  },
});
