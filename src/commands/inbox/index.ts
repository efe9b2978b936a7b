// The inbox group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'categories',
      summary: 'List the reply categories of the unified inbox',
      example: 'inbox categories',
      load: () => import('./categories.js'),
    },
  ],
};
