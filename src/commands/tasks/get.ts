import { arg } from '../../cli/flags.js';
import { recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { tasksEndpoints } from '../../api/contract/tasks.js';
import { call } from '../../api/call.js';
import { taskColumns } from './columns.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('taskId')],
  examples: ['tasks get tk000001 --json'],
  async run(ctx, opts) {
    const params = { taskId: opts.args[0] };
    const task = (await call(await ctx.http(), tasksEndpoints.get, { params })).payload.task;
    const columns = taskColumns(ctx.output.format === 'table', ctx.clock.now()).map((c) => ({
      ...c,
      header: c.header.charAt(0) + c.header.slice(1).toLowerCase(),
    }));
    return recordResult(task, [
      ...columns,
      { header: 'Note', value: (t) => t.note ?? '' },
      { header: 'Call outcome', value: (t) => t.callOutcome ?? '' },
    ]);
  },
});
