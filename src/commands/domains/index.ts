// The domains group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'list',
      summary: 'List sending domains with their mailboxes and provisioning status; --wait until provisioned',
      example: 'domains list',
      load: () => import('./list.js'),
    },
    {
      name: 'check',
      summary:
        'Check sending domains in DNS: MX, SPF (lookups counted), DMARC, DKIM; the record to publish for each problem',
      example: 'domains check',
      load: () => import('./check.js'),
    },
    {
      name: 'buy',
      summary: 'Buy domains and mailboxes: from flags or an order file, checked, confirmed, never sent twice',
      example: 'domains buy --file order.yaml --dry-run',
      load: () => import('./buy.js'),
    },
    {
      name: 'delete',
      summary: 'Move domains to deleted (revoke undoes it while they are deleted)',
      example: 'domains delete dmActive01 --yes',
      load: () => import('./delete.js'),
    },
    {
      name: 'upload-picture',
      summary: 'Upload a mailbox profile picture (PNG, JPG or GIF, at most 1 MB); prints its id',
      example: 'domains upload-picture alice.png',
      load: () => import('./upload-picture.js'),
    },
    {
      name: 'revoke',
      summary: 'Bring deleted domains back (only from deleted; checked before sending)',
      example: 'domains revoke dmDeleted2',
      load: () => import('./revoke.js'),
    },
  ],
};
