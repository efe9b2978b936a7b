// The auth group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'login',
      summary: 'Store an API key in a profile (checked against the service first)',
      example: 'auth login',
      load: () => import('./login.js'),
    },
    {
      name: 'status',
      summary: 'Show the profile, base URL and masked key in use, and check the key live',
      example: 'auth status',
      load: () => import('./status.js'),
    },
    {
      name: 'logout',
      summary: "Remove the stored API key of a profile (the profile's base URL is kept)",
      example: 'auth logout',
      load: () => import('./logout.js'),
    },
  ],
};
