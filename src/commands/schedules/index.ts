// The schedules group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'create',
      summary: 'Create a sending schedule: an interactive builder on a terminal, or flags / a JSON file',
      example: 'schedules create',
      load: () => import('./create.js'),
    },
    {
      name: 'preview',
      summary:
        "When a schedule's first window reaches each prospect of a CSV, in their zone; warns on odd hours and DST",
      example: 'schedules preview 58964 --prospects leads.csv',
      load: () => import('./preview.js'),
    },
    {
      name: 'list',
      summary: 'List sending schedules: id, name, zone, default, working days',
      example: 'schedules list',
      load: () => import('./list.js'),
    },
  ],
};
