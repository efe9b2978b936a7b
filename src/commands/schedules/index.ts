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
      name: 'list',
      summary: 'List sending schedules: id, name, zone, default, working days',
      example: 'schedules list',
      load: () => import('./list.js'),
    },
  ],
};
