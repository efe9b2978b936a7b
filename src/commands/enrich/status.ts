import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { arg, flag } from '../../cli/flags.js';
import type { Column } from '../../cli/render/columns.js';
import type { EnrichmentJob } from '../../api/contract/people.js';
import { enrichmentDone, enrichmentStatus } from '../../api/resources/people.js';
import { formatCount } from '../../format.js';
import { UsageError } from '../../errors.js';

const columns: Column<EnrichmentJob>[] = [
  { header: 'REQUEST', value: (j) => j.requestId },
  { header: 'STATUS', value: (j) => j.status, useful: 11 },
  { header: 'TOTAL', value: (j) => j.totalRecords },
  // On a narrow terminal these go first (--json has them all): counts that the others imply or that few need.
  { header: 'PROCESSED', value: (j) => j.processed, drop: 2 },
  { header: 'SUCCEEDED', value: (j) => j.succeeded },
  { header: 'FAILED', value: (j) => j.failed },
  { header: 'ALREADY REVEALED', value: (j) => j.alreadyRevealed, drop: 1 },
  { header: 'CREDITS', value: (j) => j.creditsCharged, drop: 3 },
];

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.list('requestId', { min: 1 })],
  description:
    'Counters: total, processed, succeeded, failed, alreadyRevealed (found before, not charged again), creditsCharged.\n' +
    '--wait polls until every job is done, up to --wait-timeout. An unknown id exits 2.',
  examples: ['enrich status aB3dE5fG', 'enrich status aB3dE5fG cD4eF6gH --wait --json'],
  flags: {
    wait: flag.bool('poll until every job is done (up to --wait-timeout)'),
  },
  async run(ctx, opts) {
    const ids = opts.args[0].map((id) => id.trim());
    // An empty id would ask for the job list's path, not a job: refused before anything is sent.
    if (ids.some((id) => !id))
      throw new UsageError('<requestId> must not be empty', 'Request ids are printed by `outreach enrich contacts`.');
    const http = await ctx.http();
    const check = () => Promise.all(ids.map((id) => enrichmentStatus(http, id)));
    let jobs = await check();
    if (opts.wait) {
      const { pollUntil } = await import('../../jobs/poller.js');
      jobs = await ctx.job((job) =>
        pollUntil(
          async () => {
            const now = await check();
            const processed = now.reduce((n, j) => n + (j.processed ?? 0), 0);
            const total = now.reduce((n, j) => n + (j.totalRecords ?? 0), 0);
            job.emit({
              type: 'progress',
              text: `enrichment: ${formatCount(processed)} of ${formatCount(total)} processed`,
            });
            return now;
          },
          (now) => now.every(enrichmentDone),
          {
            clock: ctx.clock,
            signal: ctx.signal,
            timeoutMs: ctx.waitTimeoutMs,
            what: `enrichment ${ids.join(', ')}`,
            later: { kind: 'enrichment-status', requestIds: ids, wait: false },
          },
        ),
      );
    }
    return listResult(jobs, columns);
  },
});
