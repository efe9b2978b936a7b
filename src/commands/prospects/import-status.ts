import { arg, flag } from '../../cli/flags.js';
import { recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { getImportStatus } from '../../api/resources/prospects.js';
import { pollUntil } from '../../jobs/poller.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('requestId')],
  description: 'With --wait, polls (backing off from 0.5 s to 10 s) until the import completes.',
  examples: ['prospects import-status aB3dE5fG --wait --json'],
  flags: { wait: flag.bool('poll until the import completes') },
  async run(ctx, opts) {
    const http = await ctx.http();
    const [requestId] = opts.args;
    const check = () => getImportStatus(http, requestId);
    if (opts.wait) ctx.info(`Waiting for import ${requestId} to complete...`);
    const waiting = {
      clock: ctx.clock,
      signal: ctx.signal,
      timeoutMs: ctx.waitTimeoutMs,
      what: `import ${requestId}`,
      later: { kind: 'import-status', requestId, wait: true } as const,
    };
    let checks = 0;
    const status = opts.wait
      ? await ctx.job((job) =>
          pollUntil(
            () => {
              job.emit({ type: 'progress', text: `waiting for import ${requestId} to complete (check ${++checks})` });
              return check();
            },
            (s) => s.isCompleted,
            waiting,
          ),
        )
      : await check();
    return recordResult(
      status,
      [
        { header: 'Request', value: () => requestId },
        { header: 'Completed', value: (s) => s.isCompleted },
        { header: 'Failed rows report', value: (s) => s.reportUrl ?? (s.isCompleted ? 'none: no row failed' : '') },
      ],
      status.raw,
    );
  },
});
