import { maxBulkSnoozeTasks } from '../../api/contract/tasks.js';
import { flag } from '../../cli/flags.js';
import { UsageError } from '../../errors.js';
import { bulkActionVerb } from './bulk-action-verb.js';
import { snoozeUntil } from './snooze-until.js';

export default bulkActionVerb({
  agent: { kind: 'write', idempotent: true, job: true },
  job: 'bulk-snooze',
  words: { verb: 'snooze', done: 'snoozed' },
  batchSize: maxBulkSnoozeTasks,
  description: [
    'Snoozes the tasks until --until (a duration from now: 30m, 4h, 2d, 1w; or an ISO 8601 date-time with its zone):',
    'each is due again then. Ids come as for bulk-skip: arguments, --file, - for stdin, and/or the --where-* filters;',
    'de-duplicated and sent 10,000 a request, --concurrency batches at a time, each followed until done. On a terminal',
    'it asks first; otherwise --yes is required. A journal (bulk-snooze-<time>.journal) records the end of the snooze',
    'with the batches: --resume sends the rest with that same time. Tasks that could not be snoozed (completed,',
    'skipped, unknown) are merged into bulk-snooze-<time>.failed.csv; then exit 3.',
  ],
  examples: [
    'tasks bulk-snooze --where-status overdue --where-type call --until 2d --yes',
    'tasks bulk-snooze --file ids.txt --until 2026-12-01T09:00:00Z --dry-run',
  ],
  flags: {
    until: flag.text('when the snooze ends: a duration (2d, 4h) or a date-time with a zone', { value: 'when' }),
  },
  fromJournal: ['until'],
  async action(ctx, opts) {
    if (opts.until === undefined)
      throw new UsageError('--until is required', 'Example: --until 2d, or --until 2026-12-01T09:00:00Z.');
    const { snoozeAction } = await import('../../jobs/bulk-action.js');
    return snoozeAction(snoozeUntil(opts.until, ctx.clock.now()));
  },
});
