import { defineTable } from '../../db/table.js';
import type { WebhookRecord } from '../../model.js';

export const webhooksTable = defineTable<WebhookRecord>({
  name: 'webhooks',
  id: (w) => w.id,
  columns: [{ name: 'status', value: (w) => w.status }],
});

/** The active webhooks subscribed to an event kind. */
export const subscribed = (webhooks: WebhookRecord[], kind: string) =>
  webhooks.filter((w) => w.status === 'active' && w.webhookEvent.includes(kind));
