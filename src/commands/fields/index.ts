// The fields group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'list',
      summary: 'List prospect fields: id, label, type (custom ones; --system adds the built-in ones)',
      example: 'fields list',
      load: () => import('./list.js'),
    },
    {
      name: 'update',
      summary: 'Change a custom field: label, fallback text, or its tags',
      example: 'fields update cSeats00 --label "Seat count"',
      load: () => import('./update.js'),
    },
  ],
};
