import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { doneResult } from '../../cli/result.js';
import { call } from '../../api/call.js';
import { callOutcomes, normaliseCallOutcome, tasksEndpoints } from '../../api/contract/tasks.js';
import { snoozeUntil } from './snooze-until.js';

export default defineVerb({
  agent: { kind: 'write', idempotent: true },
  args: [arg.text('taskId')],
  description:
    'The task is due again when the snooze ends: --until takes a duration from now (30m, 4h, 2d, 1w) or an ISO 8601\n' +
    'date-time with its zone. A completed or skipped task cannot be snoozed. A call task may record its outcome.',
  examples: [
    'tasks snooze tk000001 --until 2d',
    'tasks snooze tk000002 --until 2026-12-01T09:00:00Z --outcome no-answer',
  ],
  flags: {
    until: flag.requiredText('when the snooze ends: a duration (2d, 4h) or a date-time with a zone', { value: 'when' }),
    outcome: flag.choice(callOutcomes, 'call outcome (call tasks only)', {
      value: 'outcome',
      normalise: normaliseCallOutcome,
      spellings: ' (any case, or hyphenated)',
    }),
  },
  async run(ctx, opts) {
    const [taskId] = opts.args;
    const until = snoozeUntil(opts.until, ctx.clock.now());
    const body = { snoozeUntil: until, ...(opts.outcome && { callOutcome: opts.outcome }) };
    const answer = await call(await ctx.http(), tasksEndpoints.snooze, { params: { taskId }, body });
    const task = answer.payload?.task ?? { taskId, status: 'snoozed', snoozedUntil: until };
    return doneResult(`Snoozed ${taskId} until ${task.snoozedUntil ?? until}.`, task);
  },
});
