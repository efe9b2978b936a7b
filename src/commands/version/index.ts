// `outreach version` is itself a verb.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  self: {
    name: 'version',
    summary: 'Print the version of outreach and of the Node.js it runs on',
    example: 'version',
    load: () => import('./version.js'),
  },
};
