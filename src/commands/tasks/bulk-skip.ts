import { maxBulkSkipTasks } from '../../api/contract/tasks.js';
import { bulkActionVerb } from './bulk-action-verb.js';

export default bulkActionVerb({
  agent: { kind: 'destructive', idempotent: true, job: true },
  job: 'bulk-skip',
  words: { verb: 'skip', done: 'skipped' },
  batchSize: maxBulkSkipTasks,
  description: [
    'Ids come from the arguments, --file (one per line, or a CSV with a taskId/id column), - for stdin, and/or',
    'the --where-* filters (the same as `tasks list`). They are de-duplicated and sent 100 a request, --concurrency',
    'batches at a time; each bulk action is followed until done. Once it has learnt how long batches take, a batch',
    "gives its place to the next when the service is due to finish it, while its status is checked (that check's",
    'round trip is not added to every batch). On a terminal it asks first; otherwise --yes is',
    'required. A journal (bulk-skip-<time>.journal) lets --resume continue after a crash or Ctrl-C without re-sending',
    'accepted batches. Tasks that could not be skipped are merged into bulk-skip-<time>.failed.csv; then exit 3. A',
    'run started in the same second as another takes bulk-skip-<time>-2.journal (and -2.failed.csv), and so on.',
  ],
  examples: [
    'tasks bulk-skip --file ids.csv --yes --json',
    'outreach tasks list --status overdue | cut -f1 | outreach tasks bulk-skip - --yes',
    'tasks bulk-skip --where-status overdue --dry-run',
  ],
  flags: {},
  action: async () => (await import('../../jobs/bulk-action.js')).skipAction,
});
