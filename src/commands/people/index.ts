// The people group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'search',
      summary: 'Find people by title, company, location and 27 more filters; page through or stream them all',
      example: "people search --title 'Head of Sales' --location Germany --limit 500 --csv",
      load: () => import('./search.js'),
    },
  ],
};
