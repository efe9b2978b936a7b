// The retry policy against injected faults: what is replayed, what never is, how long it waits.
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { refusingUrl } from '../helpers/closed-port.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { createFaultInjector } from '../../src/sandbox/faults.js';
import { backoffDelay, parseRetryAfter, retryDecision } from '../../src/api/retry-policy.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const requestsTo = (path: string) => sb!.sandbox.requestLog.filter((r) => r.path === path);

describe('retry policy against the sandbox', () => {
  it('replays a safe GET after 500/5001 until it succeeds or retries run out', async () => {
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['error500'] } });
    const result = await run(['--max-retries', '3', 'inbox', 'categories'], { env: sb.env });
    expect(result.code).toBe(1);
    expect(requestsTo('/v1/unibox/categories')).toHaveLength(4);
    expect(result.stderr).toBe(
      'error: Internal server error, retry later (GET /v1/unibox/categories: HTTP 500, code 5001)\nhint: The service had a problem; try again later. --debug shows each attempt.\n',
    );
  });

  it('does not replay an unsafe POST once the server answered 500', async () => {
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['error500'] } });
    const result = await run(['api', 'POST', '/v1/webhook/create', '-f', 'name=x'], { env: sb.env });
    expect(result.code).toBe(1);
    expect(requestsTo('/v1/webhook/create')).toHaveLength(1);
  });

  it('does not replay an unsafe POST whose connection dropped after the server saw it', async () => {
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['drop'] } });
    const result = await run(['--debug', 'api', 'POST', '/v1/webhook/create', '-f', 'name=x'], { env: sb.env });
    expect(result.code).toBe(1);
    expect(requestsTo('/v1/webhook/create')).toHaveLength(1);
    expect(result.stderr).toContain(
      'not retrying: ECONNRESET after sending; the server may have acted on it, so it is not replayed',
    );
  });

  it('replays a safe GET whose connection dropped', async () => {
    // A seed whose first request is dropped and whose second is not.
    const seed = [...Array(100).keys()].find((s) => {
      const next = createFaultInjector({ rate: 0.5, seed: s, kinds: ['drop'] });
      return next() === 'drop' && next() === undefined;
    })!;
    sb = await startTestSandbox({ faults: { rate: 0.5, seed, kinds: ['drop'] } });
    const result = await run(['inbox', 'categories'], { env: sb.env });
    expect(result.code).toBe(0);
    expect(requestsTo('/v1/unibox/categories').map((r) => r.fault ?? 'none')).toEqual(['drop', 'none']);
    expect(result.stdout.split('\n')[0]).toBe('uncategorized\tUncategorized\tyes\tNeutral');
  });

  it('waits out 429s within --rate-limit-wait, even for unsafe requests, honouring Retry-After', async () => {
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['rateLimit429'] } });
    const result = await run(['--rate-limit-wait', '2', 'api', 'POST', '/v1/webhook/create', '-f', 'name=x'], {
      env: sb.env,
    });
    expect(requestsTo('/v1/webhook/create')).toHaveLength(3);
    expect(result.sleeps).toEqual([1000, 1000]);
    expect(result.code).toBe(5);
    const lines = result.stderr.split('\n');
    expect(lines[0]).toMatch(
      /^waiting: the service is rate-limiting \(HTTP 429\); next try in 1s, giving up at \d\d:\d\d:\d\d \(--rate-limit-wait 2\)$/,
    );
    expect(lines.slice(1)).toEqual([
      'error: rate-limited (POST /v1/webhook/create: HTTP 429, code 4290): Too many requests',
      'hint: Wait and run the command again; --rate-limit-wait SECONDS waits longer, --concurrency 1 asks less often.',
      '',
    ]);

    // The default for one request is 30 s of waiting (Retry-After: 1 s, so 30 waits and 31 tries); --max-retries
    // counts faults, not 429s.
    const byDefault = await run(['--max-retries', '0', 'inbox', 'categories'], { env: sb.env });
    expect(byDefault.code).toBe(5);
    expect(byDefault.sleeps).toEqual(Array(30).fill(1000));

    await sb.close();
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['unavailable503'] } });
    const unavailable = await run(['--max-retries', '2', 'inbox', 'categories'], { env: sb.env });
    expect(unavailable.code).toBe(1);
    expect(requestsTo('/v1/unibox/categories')).toHaveLength(3);
    expect(unavailable.sleeps).toEqual([375, 750]); // equal jitter with random() = 0.5
  });

  it('recovers from a mix of faults reproducibly for the same seed', async () => {
    const outcomes: number[][] = [];
    for (let i = 0; i < 2; i++) {
      sb = await startTestSandbox({
        faults: { rate: 0.4, seed: 42, kinds: ['error500', 'rateLimit429', 'unavailable503'] },
      });
      for (let n = 0; n < 5; n++) expect((await run(['inbox', 'categories'], { env: sb.env })).code).toBe(0);
      outcomes.push(sb.sandbox.requestLog.map((r) => r.status));
      await sb.close();
      sb = undefined;
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]!.some((s) => s !== 200)).toBe(true);
  });

  it('does not retry a refused connection to a service that never answered: exit 1 at once, naming the setting', async () => {
    const refusing = await refusingUrl();
    const result = await run(['--max-retries', '2', 'inbox', 'categories'], {
      env: { OUTREACH_BASE_URL: refusing, OUTREACH_API_KEY: 'sk_x_123456789' },
    });
    expect(result.code).toBe(1);
    expect(result.sleeps).toHaveLength(0);
    expect(result.stderr).toBe(
      `error: GET /v1/unibox/categories failed: connection refused (${refusing})\n` +
        'hint: Nothing is listening there. Check the base URL (set by OUTREACH_BASE_URL).\n',
    );
  });

  it('gives up on a slow answer after --timeout', async () => {
    sb = await startTestSandbox({ latencyMs: 1500 });
    // The answer waits out its latency, which the test never lets pass: the client's deadline is the only way out.
    sb.sleeps.hold();
    const result = await run(['--timeout', '0.3', '--max-retries', '0', 'inbox', 'categories'], { env: sb.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: GET /v1/unibox/categories timed out (--timeout 0.3s)');
    expect(sb.sleeps.pending()).toEqual([1500]);
  });
});

describe('retry policy for failures that say the address is wrong', () => {
  const network = (code: string, mayHaveReachedServer = false) => ({
    kind: 'network' as const,
    mayHaveReachedServer,
    code,
  });

  it('fails at once before the service has answered, and retries once it has (a restart mid-job)', () => {
    for (const code of ['ECONNREFUSED', 'CONNECT_TIMEOUT', 'ENOTFOUND', 'EHOSTUNREACH']) {
      expect({ code, retry: retryDecision(network(code), true, false).retry }).toEqual({ code, retry: false });
      expect({ code, retry: retryDecision(network(code), false, true).retry }).toEqual({ code, retry: true });
    }
  });

  it('never retries a refused certificate, but retries a TLS fault on a connection already in use', () => {
    expect(retryDecision(network('ERR_TLS_CERT_ALTNAME_INVALID'), true, true).retry).toBe(false);
    expect(retryDecision(network('CERT_HAS_EXPIRED'), true, true).retry).toBe(false);
    expect(retryDecision(network('ERR_SSL_DECRYPTION_FAILED_OR_BAD_RECORD_MAC', true), true, true).retry).toBe(true);
  });
});

describe('retry policy rules', () => {
  const response = (status: number) => ({
    kind: 'response' as const,
    response: { status, headers: {}, body: undefined },
  });

  it('decides per status and safety', () => {
    expect(retryDecision(response(200), false).retry).toBe(false);
    expect(retryDecision(response(400), true).retry).toBe(false);
    for (const status of [429, 502, 503, 504]) expect(retryDecision(response(status), false).retry).toBe(true);
    expect(retryDecision(response(500), true).retry).toBe(true);
    expect(retryDecision(response(500), false).retry).toBe(false);
    expect(retryDecision({ kind: 'network', mayHaveReachedServer: false, code: 'ECONNREFUSED' }, false).retry).toBe(
      true,
    );
    expect(retryDecision({ kind: 'network', mayHaveReachedServer: true, code: 'ECONNRESET' }, false).retry).toBe(false);
    expect(retryDecision({ kind: 'network', mayHaveReachedServer: true, code: 'ECONNRESET' }, true).retry).toBe(true);
  });

  it('backs off exponentially with a cap and jitter', () => {
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, 8000, () => 0))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, 8000, () => 1))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('3', 0)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});
