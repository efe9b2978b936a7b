// Webhook deliveries of the sandbox: real HTTP POSTs of a JSON event with the webhook's custom headers, each attempt
// bounded by one deadline for the whole exchange. Only receivers on this machine get real deliveries: one elsewhere
// is simulated as delivered, so trying the sandbox never sends a secret header to a real host. Events are delivered
// in the background, retried after short delays; a webhook whose receiver keeps failing is paused with
// `failed: true` and `lastFailure`, as the real service does. The test delivery at creation is one attempt, awaited.
// `idle()` resolves once nothing is being delivered (tests and shutdown wait on it). The deadlines and the delays
// between attempts are waited on the sleep given (the sandbox's clock), so a test decides when they pass.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Clock } from '../../../context.js';
import { isLoopbackHost } from '../../../loopback.js';
import type { Table, TableSpec } from '../../db/table.js';
import type { WebhookRecord } from '../../model.js';
import { subscribed, webhooksTable } from './table.js';

/** What deliveries need of the store (not the Store itself: it holds the dispatcher). */
export interface DeliveryStore {
  table<T>(spec: TableSpec<T>): Table<T>;
  now(): number;
  isoNow(): string;
  /** Runs work in a transaction of its own, after those under way. */
  run<T>(work: () => T): Promise<T>;
}

export interface DeliveryOptions {
  /** One attempt's deadline (default 5 s). */
  timeoutMs: number;
  /** Waits before the second and later attempts (default 0.2 s, then 1 s). */
  retryDelaysMs: number[];
  /** How deliveries wait: an attempt's deadline and the delays between attempts. */
  sleep: Clock['sleep'];
}

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
    // Random, not from the id counter: a delivery runs outside any request's transaction.
    eventId: randomUUID(),
    occurredAt: store.isoNow(),
    webhook: { id: webhook.id, name: webhook.name },
    ...data,
  };
}

/** Whether a receiver is on this machine (the only place the sandbox really sends to). */
export function isLocalReceiver(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

export function postOnce(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
  sleep: Clock['sleep'],
  signal?: AbortSignal,
) {
  return new Promise<DeliveryOutcome>((resolve) => {
    if (!isLocalReceiver(url))
      return resolve({ ok: true, statusCode: 200, message: 'simulated: the sandbox delivers only to this machine' });
    const payload = JSON.stringify(body);
    let settled = false;
    // Ends the deadline's wait once the exchange has ended some other way.
    const deadline = new AbortController();
    const finish = (outcome: DeliveryOutcome) => {
      if (settled) return;
      settled = true;
      deadline.abort();
      signal?.removeEventListener('abort', stop);
      resolve(outcome);
    };
    const client = new URL(url).protocol === 'https:' ? https : http;
    const req = client.request(
      url,
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
          finish({ ok, statusCode, message: ok ? 'delivered' : `the receiver answered ${statusCode}` });
        });
        res.on('error', () => finish({ ok: false, statusCode: res.statusCode ?? 0, message: 'the answer broke off' }));
      },
    );
    // One deadline for the whole exchange: a receiver that answers a byte at a time does not hold it up.
    sleep(timeoutMs, deadline.signal).then(
      () => {
        req.destroy();
        finish({ ok: false, statusCode: 0, message: `no answer within ${timeoutMs / 1000}s` });
      },
      () => undefined,
    );
    const stop = () => {
      req.destroy();
      finish({ ok: false, statusCode: 0, message: 'the sandbox stopped' });
    };
    signal?.addEventListener('abort', stop, { once: true });
    req.on('error', (error) => finish({ ok: false, statusCode: 0, message: error.message }));
    req.end(payload);
  });
}

export class WebhookDispatcher {
  private readonly pending = new Set<Promise<void>>();
  /** Aborted when the sandbox stops: deliveries still under way end at once. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: DeliveryStore,
    private readonly options: DeliveryOptions,
  ) {}

  /** The delivery a new webhook gets: one attempt; a failure leaves it paused. */
  async testDelivery(webhook: WebhookRecord): Promise<DeliveryOutcome> {
    const body = eventBody(this.store, 'test', webhook, { message: 'Test delivery from the outreach sandbox' });
    const outcome = await this.post(webhook, body);
    if (!outcome.ok) await this.fail(webhook, outcome);
    return outcome;
  }

  /** Delivers an event to every active webhook subscribed to its kind, in the background. */
  dispatch(kind: string, data: Record<string, unknown>): void {
    for (const webhook of subscribed(this.store.table(webhooksTable).all(), kind))
      this.track(this.deliver(webhook, kind, data));
  }

  /** One event to one webhook, with retries; resolves with the last attempt's outcome. */
  async deliver(webhook: WebhookRecord, kind: string, data: Record<string, unknown>): Promise<DeliveryOutcome> {
    const body = eventBody(this.store, kind, webhook, data);
    let outcome: DeliveryOutcome = { ok: false, statusCode: 0, message: 'not sent' };
    for (let attempt = 0; attempt <= this.options.retryDelaysMs.length; attempt++) {
      if (attempt > 0)
        await this.options.sleep(this.options.retryDelaysMs[attempt - 1]!, this.stopping.signal).catch(() => undefined);
      if (this.stopping.signal.aborted) return outcome;
      outcome = await this.post(webhook, body);
      if (outcome.ok) return outcome;
    }
    await this.fail(webhook, outcome);
    return outcome;
  }

  /** Resolves once every delivery under way has ended. */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Ends every delivery under way (the sandbox is stopping); a webhook is not failed for it. */
  stop(): void {
    this.stopping.abort();
  }

  private post(webhook: WebhookRecord, body: unknown): Promise<DeliveryOutcome> {
    const { webhookUrl, headers } = webhook;
    return postOnce(webhookUrl, headers, body, this.options.timeoutMs, this.options.sleep, this.stopping.signal);
  }

  private track(delivery: Promise<unknown>): void {
    const done: Promise<void> = delivery.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  }

  private async fail(webhook: WebhookRecord, outcome: DeliveryOutcome): Promise<void> {
    if (this.stopping.signal.aborted) return;
    const failedAt = this.store.now();
    // Read again when it is written: another request may have changed it since the delivery began.
    await this.store.run(() => {
      const table = this.store.table(webhooksTable);
      const current = table.get(webhook.id);
      if (!current) return;
      const lastFailure = { failedAt, statusCode: outcome.statusCode, message: outcome.message };
      table.put({ ...current, status: 'paused', failed: true, lastFailure });
    });
  }
}
