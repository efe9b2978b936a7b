// Webhooks (spec.md "Webhook", "Webhooks", "Events").
import * as z from 'zod/mini';
import { count, id, nonEmpty, nullish, optional, pageMeta } from './schema.js';
import { endpoint } from './endpoint.js';

export const webhookEvents = [
  'email-sent',
  'email-opened',
  'email-link-clicked',
  'reply-received',
  'email-bounced',
  'prospect-unsubscribed',
  'prospect-finished',
  'prospect-outcome-updated',
  'sequence-paused',
  'email-account-disconnected',
  'email-account-paused',
  'inbox-analyser-test-completed',
  'task-created',
  'task-updated',
  'bulk-task-updated',
  'call-task-updated',
  'linkedin-task-updated',
  'custom-task-updated',
  'whatsapp-task-updated',
] as const;

/** Active webhooks an account may have (real-service-notes.md). */
export const maxActiveWebhooks = 50;

export const webhookSchema = z.looseObject({
  id,
  name: optional(z.string()),
  webhookUrl: optional(z.string()),
  webhookEvent: optional(z.array(z.string())),
  headers: optional(z.record(z.string(), z.string())),
  status: optional(z.string()),
  failed: optional(z.boolean()),
  lastFailure: nullish(
    z.looseObject({
      failedAt: optional(z.union([z.number(), z.string()])),
      statusCode: optional(z.number()),
      message: optional(z.string()),
    }),
  ),
  testDelivery: optional(z.looseObject({ status: optional(z.string()) })),
});

export const webhookCreateBody = z.strictObject({
  name: nonEmpty,
  webhookUrl: nonEmpty,
  webhookEvent: z.array(z.enum(webhookEvents)).check(z.minLength(1)),
  headers: z.record(z.string(), z.string()),
});

export const webhooksEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/v1/webhook/create',
    // A replay would register a second webhook.
    replaySafe: false,
    body: webhookCreateBody,
    response: z.looseObject({ message: optional(z.string()), payload: webhookSchema }),
  }),
  list: endpoint({
    method: 'GET',
    path: '/v1/webhook',
    replaySafe: true,
    query: z.strictObject({ page: optional(count('page')), pageSize: optional(count('pageSize', 1, 100)) }),
    response: z.looseObject({
      payload: z.looseObject({
        meta: optional(pageMeta),
        webhooks: z.array(z.looseObject({ id, name: optional(z.string()) })),
      }),
    }),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/webhook/{webhookId}',
    replaySafe: true,
    params: z.object({ webhookId: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()), payload: webhookSchema }),
    // The service answers an unknown id 404, or 400 with code 1001.
    notFound: {
      what: 'webhook',
      param: 'webhookId',
      codes: [1001],
      hint: 'See the ids with `outreach webhooks list`.',
    },
  }),
};
