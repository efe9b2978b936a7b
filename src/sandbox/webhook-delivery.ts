// Webhook deliveries of the sandbox: real HTTP POSTs of a JSON event with the webhook's custom headers, each attempt
// bounded by a timeout. Events are delivered in the background, retried after short delays; a webhook whose receiver
// keeps failing is paused with `failed: true` and `lastFailure`, as the real service does. The test delivery at
// creation is one attempt, awaited. `idle()` resolves once nothing is being delivered (tests and shutdown wait on it).
import http from 'node:http';
import https from 'node:https';
import type { WebhookRecord } from './model.js';

/** What deliveries need of the store (not the Store itself: it holds the dispatcher). */
export interface DeliveryStore {
  state: { webhooks: WebhookRecord[] };
  now(): number;
  isoNow(): string;
  id(): string;
  changed(): void;
}

export interface DeliveryOptions {
  /** One attempt's deadline (default 5 s). */
  timeoutMs: number;
  /** Waits before the second and later attempts (default 0.2 s, then 1 s). */
  retryDelaysMs: number[];
}

export const defaultDeliveryOptions: DeliveryOptions = { timeoutMs: 5_000, retryDelaysMs: [200, 1_000] };

export interface DeliveryOutcome {
  ok: boolean;
  /** 0 when no HTTP answer came (refused, reset, timed out). */
  statusCode: number;
  message: string;
}

/** The body every event shares (the sandbox's choice; spec.md does not show one), then the event's own fields. */
export function eventBody(
  store: DeliveryStore,
  kind: string,
  webhook: Pick<WebhookRecord, 'id' | 'name'>,
  data: Record<string, unknown>,
) {
  return {
    event: kind,
    eventId: store.id(),
    occurredAt: store.isoNow(),
    webhook: { id: webhook.id, name: webhook.name },
    ...data,
  };
}

export function postOnce(url: string, headers: Record<string, string>, body: unknown, timeoutMs: number) {
  return new Promise<DeliveryOutcome>((resolve) => {
    const payload = JSON.stringify(body);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ ok: false, statusCode: 0, message: `not a URL: ${url}` });
    }
    const client = target.protocol === 'https:' ? https : http;
    const req = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(payload)),
          'user-agent': 'outreach-sandbox-webhooks',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          const statusCode = res.statusCode ?? 0;
          const ok = statusCode >= 200 && statusCode < 300;
          resolve({ ok, statusCode, message: ok ? 'delivered' : `the receiver answered ${statusCode}` });
        });
        res.on('error', () => resolve({ ok: false, statusCode: res.statusCode ?? 0, message: 'the answer broke off' }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000}s`)));
    req.on('error', (error) => resolve({ ok: false, statusCode: 0, message: error.message }));
    req.end(payload);
  });
}

export class WebhookDispatcher {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly store: DeliveryStore,
    private readonly options: DeliveryOptions = defaultDeliveryOptions,
  ) {}

  /** The delivery a new webhook gets: one attempt; a failure leaves it paused. */
  async testDelivery(webhook: WebhookRecord): Promise<DeliveryOutcome> {
    const body = eventBody(this.store, 'test', webhook, { message: 'Test delivery from the outreach sandbox' });
    const outcome = await postOnce(webhook.webhookUrl, webhook.headers, body, this.options.timeoutMs);
    if (!outcome.ok) this.fail(webhook, outcome);
    return outcome;
  }

  /** Delivers an event to every active webhook subscribed to its kind, in the background. */
  dispatch(kind: string, data: Record<string, unknown>): void {
    for (const webhook of this.store.state.webhooks)
      if (webhook.status === 'active' && webhook.webhookEvent.includes(kind))
        this.track(this.deliver(webhook, kind, data));
  }

  /** One event to one webhook, with retries; resolves with the last attempt's outcome. */
  async deliver(webhook: WebhookRecord, kind: string, data: Record<string, unknown>): Promise<DeliveryOutcome> {
    const body = eventBody(this.store, kind, webhook, data);
    let outcome: DeliveryOutcome = { ok: false, statusCode: 0, message: 'not sent' };
    for (let attempt = 0; attempt <= this.options.retryDelaysMs.length; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, this.options.retryDelaysMs[attempt - 1]));
      outcome = await postOnce(webhook.webhookUrl, webhook.headers, body, this.options.timeoutMs);
      if (outcome.ok) return outcome;
    }
    this.fail(webhook, outcome);
    return outcome;
  }

  /** Resolves once every delivery under way has ended. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private track(delivery: Promise<unknown>): void {
    const done: Promise<void> = delivery.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  }

  private fail(webhook: WebhookRecord, outcome: DeliveryOutcome): void {
    webhook.status = 'paused';
    webhook.failed = true;
    webhook.lastFailure = { failedAt: this.store.now(), statusCode: outcome.statusCode, message: outcome.message };
    this.store.changed();
  }
}
