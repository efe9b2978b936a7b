// An in-process sandbox on 127.0.0.1:0 with a known key, for run tests and sandbox rule tests.
import { Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { realClock } from '../../src/context.js';
import { testTime } from './context.js';

export const testKey = 'sk_test_9f8e7d6c5b4a39281706';

export interface TestSandbox {
  sandbox: Sandbox;
  baseUrl: string;
  key: string;
  env: Record<string, string>;
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
  const sandbox = new Sandbox({ key: testKey, clock: { now: testTime.now, sleep: realClock.sleep }, ...options });
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  return {
    sandbox,
    baseUrl,
    key: options.key ?? testKey,
    env: { OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: options.key ?? testKey },
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
    close: () => sandbox.close(),
  };
}
