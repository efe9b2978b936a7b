// The enrich group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'contacts',
      summary: 'Reveal the emails (and phones) of people found by a search; --wait writes them ready to import',
      example: 'enrich contacts --file leads.csv --yes --wait --csv > enriched.csv',
      load: () => import('./contacts.js'),
    },
    {
      name: 'status',
      summary: "An enrichment job's counters; --wait follows it to the end",
      example: 'enrich status aB3dE5fG --wait',
      load: () => import('./status.js'),
    },
    {
      name: 'rate-limits',
      summary: 'How many enrichments are left this minute, hour and day, and when each resets',
      example: 'enrich rate-limits',
      load: () => import('./rate-limits.js'),
    },
  ],
};
