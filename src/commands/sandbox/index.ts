// The sandbox group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'start',
      summary: 'Serve the whole API locally until interrupted',
      example: 'sandbox start',
      load: () => import('./start.js'),
    },
    {
      name: 'export',
      summary: 'Stream what the --sandbox state (or a --state file) holds: prospects, DNC items, tasks, ...',
      example: 'sandbox export prospects --ndjson',
      load: () => import('./export.js'),
    },
    {
      name: 'reset',
      summary: 'Restore the seed data of the --sandbox state (or of a --state file)',
      example: 'sandbox reset',
      load: () => import('./reset.js'),
    },
  ],
};
