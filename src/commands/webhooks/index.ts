// The webhooks group: its verbs, each loaded only when the command line names it.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  verbs: [
    {
      name: 'create',
      summary: 'Register a webhook: URL, event kinds (task-* groups), custom headers; shows its test delivery',
      example: "webhooks create --name crm --url https://crm.example/hooks --event 'task-*'",
      load: () => import('./create.js'),
    },
    {
      name: 'list',
      summary: 'List webhooks (ids and names)',
      example: 'webhooks list --all',
      load: () => import('./list.js'),
    },
    {
      name: 'get',
      summary: 'One webhook: status, last failure, events, headers (values masked)',
      example: 'webhooks get 69fb3ac1eda582171eb74826',
      load: () => import('./get.js'),
    },
    {
      name: 'listen',
      summary: 'Receive deliveries locally: print them, check headers, forward them to your handler',
      example: "--sandbox webhooks listen --create --name dev --event 'task-*'",
      load: () => import('./listen.js'),
    },
    {
      name: 'trigger',
      summary: 'Sandbox only: deliver a sample event of a kind now',
      example: '--sandbox webhooks trigger bulk-task-updated',
      load: () => import('./trigger.js'),
    },
  ],
};
