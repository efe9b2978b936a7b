// The tasks group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'list',
      summary: 'List tasks with any filter of the API; --all walks every page as it arrives',
      example: 'tasks list --status overdue --type call',
      load: () => import('./list.js'),
    },
    { name: 'get', summary: 'Show one task', example: 'tasks get tk000001', load: () => import('./get.js') },
    {
      name: 'complete',
      summary: 'Complete a task; a call task needs its outcome',
      example: 'tasks complete tk000001 --outcome "No Answer"',
      load: () => import('./complete.js'),
    },
    {
      name: 'snooze',
      summary: 'Snooze a task until a time or for a while; it is due again then',
      example: 'tasks snooze tk000001 --until 2d',
      load: () => import('./snooze.js'),
    },
    {
      name: 'skip',
      summary: 'Skip a task: it is not due any more',
      example: 'tasks skip tk000001',
      load: () => import('./skip.js'),
    },
    {
      name: 'bulk-skip',
      summary: 'Skip any number of tasks: by id, from a file or stdin, or by filters',
      example: 'tasks bulk-skip --where-status overdue --where-type call --yes',
      load: () => import('./bulk-skip.js'),
    },
    {
      name: 'bulk-snooze',
      summary: 'Snooze any number of tasks until a time: by id, from a file or stdin, or by filters',
      example: 'tasks bulk-snooze --where-status overdue --until 2d --yes',
      load: () => import('./bulk-snooze.js'),
    },
    {
      name: 'bulk-status',
      summary: 'Show the progress of a bulk action (skip, snooze); --wait until it is done',
      example: 'tasks bulk-status aB3dE5fG',
      load: () => import('./bulk-status.js'),
    },
  ],
};
