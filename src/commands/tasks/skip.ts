import { arg } from '../../cli/flags.js';
import { doneResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { call } from '../../api/call.js';
import { tasksEndpoints } from '../../api/contract/tasks.js';

export default defineVerb({
  agent: { kind: 'destructive', idempotent: true },
  args: [arg.text('taskId')],
  description:
    'A skipped task is not due any more. Skipping a task already skipped changes nothing; a completed one cannot be\n' +
    'skipped. Many at once, by filters or from a file: `outreach tasks bulk-skip`.',
  examples: ['tasks skip tk000002 --json'],
  async run(ctx, opts) {
    const [taskId] = opts.args;
    const answer = await call(await ctx.http(), tasksEndpoints.skip, { params: { taskId } });
    return doneResult(`Skipped ${taskId}.`, answer.payload?.task ?? { taskId, status: 'skipped' });
  },
});
