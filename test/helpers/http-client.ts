// An HttpClient for tests that talk to a server directly: a clock that never waits, no retries unless asked.
import { HttpClient, type HttpConfig } from '../../src/api/http.js';

export function testHttpClient(baseUrl: string, overrides: Partial<HttpConfig> = {}): HttpClient {
  return new HttpClient({
    baseUrl,
    apiKey: 'sk_test_client_0000',
    timeoutMs: 60_000,
    connectTimeoutMs: 5_000,
    maxRetries: 0,
    rateLimitWaitMs: () => 0,
    clock: { now: () => 0, sleep: async () => undefined },
    random: () => 0.5,
    signal: new AbortController().signal,
    userAgent: 'test',
    ...overrides,
  });
}
