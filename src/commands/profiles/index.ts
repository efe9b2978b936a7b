// The profiles group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'list',
      summary: 'List profiles: name, base URL, masked key, and which one is current',
      example: 'profiles list',
      load: () => import('./list.js'),
    },
    {
      name: 'use',
      summary: 'Make a profile the current one',
      example: 'profiles use staging',
      load: () => import('./use.js'),
    },
    {
      name: 'remove',
      summary: 'Delete a profile and its stored key',
      example: 'profiles remove staging',
      load: () => import('./remove.js'),
    },
  ],
};
