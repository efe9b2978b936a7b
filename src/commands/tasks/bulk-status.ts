import { arg, flag } from '../../cli/flags.js';
import { recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { isBulkDone } from '../../api/resources/tasks.js';
import { tasksEndpoints } from '../../api/contract/tasks.js';
import { call } from '../../api/call.js';
import { pollUntil } from '../../jobs/poller.js';
import type { JobContext } from '../../jobs/context.js';
import { formatCount } from '../../format.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('bulkActionId')],
  examples: ['tasks bulk-status aB3dE5fG --wait --json'],
  flags: { wait: flag.bool('poll until the action completes') },
  async run(ctx, opts) {
    const http = await ctx.http();
    const check = () => call(http, tasksEndpoints.bulkStatus, { params: { bulkActionId: opts.args[0] } });
    // A spinner on a terminal says how far the action has got between checks.
    const checkShowing = (job: JobContext) => async () => {
      const now = await check();
      const done = formatCount((now.completed ?? 0) + (now.failed ?? 0));
      const text = `waiting for bulk action ${opts.args[0]}: ${done} of ${formatCount(now.totalTasks ?? 0)} tasks done`;
      job.emit({ type: 'progress', text });
      return now;
    };
    const status = opts.wait
      ? await ctx.job((job) =>
          pollUntil(checkShowing(job), isBulkDone, {
            clock: ctx.clock,
            signal: ctx.signal,
            timeoutMs: ctx.waitTimeoutMs,
            what: `bulk action ${opts.args[0]}`,
            later: { kind: 'bulk-status', bulkActionId: opts.args[0] },
            initialMs: 300,
            maxMs: 5000,
          }),
        )
      : await check();
    return recordResult(status, [
      { header: 'Bulk action', value: (s) => s.bulkActionId },
      { header: 'Action', value: (s) => s.action },
      { header: 'Status', value: (s) => s.status },
      { header: 'Total', value: (s) => s.totalTasks },
      { header: 'Completed', value: (s) => s.completed },
      { header: 'Failed', value: (s) => s.failed },
      { header: 'Pending', value: (s) => s.pending },
      { header: 'Error report', value: (s) => s.csvDownloadLink ?? '' },
    ]);
  },
});
