// Webhooks (spec.md "Webhook", "Webhooks", "Events"). Creating one sends a real test delivery and records how it
// went: a failed one leaves the webhook paused with `failed: true` and `lastFailure`. At most 50 active webhooks per
// account (real-service-notes.md). The list is `{payload: {meta, webhooks: [{id, name}]}}`.
import { maxActiveWebhooks, webhooksEndpoints } from '../../../api/contract/webhooks.js';
import type { WebhookRecord } from '../../model.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import { webhookById } from './events.js';
import { webhooksTable } from './table.js';

const shown = (webhook: WebhookRecord) => {
  const { lastFailure, ...rest } = webhook;
  return { ...rest, lastFailure: lastFailure ?? null };
};

const routes = routesOf(webhooksEndpoints, {
  create: (req, store) => {
    const { name, webhookUrl, webhookEvent, headers } = req.body;
    if (!/^https?:\/\/[^\s/]+/i.test(webhookUrl))
      throw new SandboxError(400, 1001, `Validation failed: body.webhookUrl must be an http(s) URL`);
    if (store.table(webhooksTable).count("status = 'active'") >= maxActiveWebhooks)
      throw new SandboxError(400, 1001, `An account can have at most ${maxActiveWebhooks} active webhooks`);
    const webhook: WebhookRecord = {
      id: store.hexId(),
      name,
      webhookUrl,
      webhookEvent: [...new Set(webhookEvent)],
      headers,
      status: 'active',
      failed: false,
      createdAt: store.isoNow(),
    };
    store.table(webhooksTable).put(webhook);
    // The test delivery goes once the webhook is committed: a receiver may call the API back meanwhile.
    const followUp = async () => {
      const outcome = await store.webhooks!.testDelivery(webhook);
      // A failed test delivery has paused it (in a transaction of its own).
      const created = await store.run(() => webhookById(store, webhook.id));
      const testDelivery = { status: outcome.ok ? 'success' : 'failed' };
      return { status: 201, body: { message: 'Webhook created', payload: { ...shown(created), testDelivery } } };
    };
    return { status: 201, followUp };
  },

  list: (req, store) => {
    const page = req.query.page ?? 1;
    const pageSize = req.query.pageSize ?? 25;
    const table = store.table(webhooksTable);
    const offset = (page - 1) * pageSize;
    const items = offset >= table.count() ? [] : table.select('1', [], { limit: pageSize, offset });
    return {
      status: 200,
      body: {
        message: 'Webhooks fetched',
        payload: {
          meta: {
            currentPage: page,
            itemsPerPage: pageSize,
            itemsCount: items.length,
            totalItems: table.count(),
          },
          webhooks: items.map((w) => ({ id: w.id, name: w.name })),
        },
      },
    };
  },

  get: (req, store) => ({
    status: 200,
    body: { message: 'Webhook fetched', payload: shown(webhookById(store, req.params.webhookId)) },
  }),
});

export const webhooksResource = defineResource({ tables: [webhooksTable], routes });
