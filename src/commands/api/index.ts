// The api group is itself a verb: `outreach api METHOD PATH`.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  self: {
    name: 'api',
    summary: 'Call any endpoint, with the same auth, retries, debug log and output as every command',
    example: 'api GET /v1/unibox/categories',
    load: () => import('./request.js'),
  },
};
