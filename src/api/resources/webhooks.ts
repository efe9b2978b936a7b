// Webhook calls, and the sandbox's trigger control (not part of the service's API).
import type { z } from 'zod/mini';
import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { webhooksEndpoints, type webhookSchema } from '../contract/webhooks.js';
import type { Page } from '../paginate.js';
import { ApiError, UsageError } from '../../errors.js';

export type Webhook = z.infer<typeof webhookSchema>;

export interface WebhookInput {
  name: string;
  webhookUrl: string;
  webhookEvent: string[];
  headers: Record<string, string>;
}

export async function createWebhook(http: HttpClient, body: WebhookInput): Promise<Webhook> {
  return (await call(http, webhooksEndpoints.create, { body })).payload;
}

export async function listWebhooksPage(
  http: HttpClient,
  page: number,
  pageSize: number,
): Promise<Page<{ id: string; name?: string }> & { totalItems?: number }> {
  const { payload } = await call(http, webhooksEndpoints.list, { query: { page, pageSize } });
  const meta = payload.meta;
  const totalPages =
    meta?.totalItems !== undefined ? Math.max(1, Math.ceil(meta.totalItems / pageSize)) : meta?.totalPages;
  return { items: payload.webhooks, totalPages, totalItems: meta?.totalItems };
}

export interface TriggerOutcome {
  webhookId: string;
  ok: boolean;
  statusCode: number;
  message: string;
}

/** The sandbox delivers a sample event now. The service has no such endpoint: against it this is said plainly. */
export async function triggerSampleEvent(
  http: HttpClient,
  event: string,
  webhookId?: string,
): Promise<TriggerOutcome[]> {
  try {
    const response = await http.send('POST', '/_sandbox/webhooks/trigger', {
      json: { event, ...(webhookId && { webhookId }) },
      replaySafe: false,
    });
    return (response.body as { payload?: { deliveries?: TriggerOutcome[] } }).payload?.deliveries ?? [];
  } catch (error) {
    if (error instanceof ApiError && error.details.status === 404) {
      if (webhookId && /webhook .* not found/i.test(error.message)) throw new UsageError(`no webhook ${webhookId}`);
      throw new UsageError(
        'webhooks trigger works only against the sandbox: the service has no endpoint that sends a sample event',
        'Try it with --sandbox, or against `outreach sandbox start`.',
      );
    }
    throw error;
  }
}
