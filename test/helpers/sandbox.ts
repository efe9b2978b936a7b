// An in-process sandbox on 127.0.0.1:0 with a known key, for run tests and sandbox rule tests. Nothing in it waits on
// the wall clock: its latency returns at once (recorded) unless a test holds it, and webhook deadlines and retry
// delays pass only when a test says so.
import { Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { testTime } from './context.js';
import { ScriptedSleep } from './scripted-sleep.js';
import { sandboxRequestLogged } from './sandbox-events.js';

export const testKey = 'sk_test_9f8e7d6c5b4a39281706';

export interface TestSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  key: string;
  env: Record<string, string>;
  /** The sandbox clock's sleeps (--latency, delay faults): at once and recorded, until sleeps.hold(). */
  sleeps: ScriptedSleep;
  /** Webhook delivery waits (an attempt's deadline, the delays between attempts): each waits for elapse(). */
  deliveryTimers: ScriptedSleep;
  /** Each request's body deadline: it passes only when a test says so (elapse(bodyDeadlineMs)). */
  bodyTimers: ScriptedSleep;
  /** fetch() against the sandbox with the key (or the headers given). */
  request(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestSandbox(options: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const sleeps = new ScriptedSleep(false);
  const deliveryTimers = new ScriptedSleep(true);
  const bodyTimers = new ScriptedSleep(true);
  const sandbox = new Sandbox({
    key: testKey,
    clock: { now: testTime.now, sleep: sleeps.sleep },
    ...options,
    webhookDelivery: { sleep: deliveryTimers.sleep, ...options.webhookDelivery },
    bodyDeadline: options.bodyDeadline ?? { sleep: bodyTimers.sleep },
    onRequest: (entry) => {
      options.onRequest?.(entry);
      sandboxRequestLogged({ entry, sleeps });
    },
  });
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  return {
    sandbox,
    baseUrl,
    key: options.key ?? testKey,
    env: { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: options.key ?? testKey },
    sleeps,
    deliveryTimers,
    bodyTimers,
    async request(method, path, body, headers) {
      const res = await fetch(baseUrl + path, {
        method,
        headers: headers ?? {
          'x-api-key': options.key ?? testKey,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* CSV and other text answers stay text */
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    // Deliveries still waiting on a deadline or a retry delay no test let pass end at once.
    close: () => sandbox.close({ now: true }),
  };
}
