// `outreach doctor` is itself a verb.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  self: {
    name: 'doctor',
    summary: 'Check this setup: Node, config permissions, settings and their sources, the service, the key, the clock',
    example: 'doctor',
    load: () => import('./doctor.js'),
  },
};
