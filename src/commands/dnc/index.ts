// The dnc group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'lists',
      summary: 'List do-not-contact lists: id, name, items, last update, owner',
      example: 'dnc lists',
      load: () => import('./lists.js'),
    },
    {
      name: 'show',
      summary: 'Show the items of a DNC list: value, type, when and by whom they were added',
      example: 'dnc show dncGlobal1',
      load: () => import('./show.js'),
    },
    {
      name: 'search',
      summary: 'Find an email or domain across every DNC list',
      example: 'dnc search acme.com',
      load: () => import('./search.js'),
    },
    {
      name: 'add',
      summary: 'Add emails and domains to a DNC list: from arguments, a CSV or text file, or stdin (-)',
      example: 'dnc add dncGlobal1 competitor.com legal@bigcorp.com',
      load: () => import('./add.js'),
    },
    {
      name: 'sync',
      summary: "Bring a DNC list up to date from another tool's unsubscribe or block list export",
      example: 'dnc sync mailchimp-unsubscribed.csv --list dncGlobal1 --dry-run',
      load: () => import('./sync.js'),
    },
    {
      name: 'export',
      summary: 'Stream every item of a DNC list as CSV: value,type,createdAt,addedBy',
      example: 'dnc export dncGlobal1 > global.csv',
      load: () => import('./export.js'),
    },
    {
      name: 'blacklist-domains',
      summary: 'Add domains with the deprecated blacklist endpoint (prefer `dnc add`)',
      example: 'dnc blacklist-domains competitor.com rival.io',
      load: () => import('./blacklist-domains.js'),
    },
  ],
};
