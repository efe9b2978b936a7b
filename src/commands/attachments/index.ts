// The attachments group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'upload',
      summary: 'Upload email (or --notes) attachments, streamed from disk; prints one id per file',
      example: 'attachments upload brochure.pdf',
      load: () => import('./upload.js'),
    },
  ],
};
