// The client through a fault-injecting proxy: what is retried, what never is, and what the service saw.
import http from 'node:http';
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { testHttpClient } from '../helpers/http-client.js';
import { NetworkError } from '../../src/errors.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy, type FaultProxy, type ProxyFault } from '../helpers/fault-proxy.js';

let sb: TestSandbox | undefined;
let proxy: FaultProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await sb?.close();
  sb = proxy = undefined;
});

/** A sandbox behind a proxy that gives the listed faults to the first requests, in order. */
async function behindProxy(faults: Array<ProxyFault | undefined>) {
  sb = await startTestSandbox();
  proxy = await startFaultProxy(sb.baseUrl, ({ n }) => faults[n - 1]);
  return { OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: testKey };
}

const arrived = (path: string) => sb!.sandbox.requestLog.filter((r) => r.path === path).length;

describe('faults between the CLI and the service', () => {
  it('retries a GET whose answer was cut off, and prints the whole answer', async () => {
    const env = await behindProxy(['truncate']);
    const result = await run(['--json', 'inbox', 'categories'], { env });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({ key: 'uncategorized' });
    expect(proxy!.log.map((r) => r.fault ?? 'none')).toEqual(['truncate', 'none']);
  });

  it('says what happened when every answer is cut off', async () => {
    const env = await behindProxy(['truncate', 'truncate']);
    const result = await run(['--max-retries', '1', 'inbox', 'categories'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: GET /v1/unibox/categories failed after 2 attempts: the answer was cut off or is not valid JSON (${proxy!.baseUrl})`,
    );
  });

  it('re-sends a replay-safe request whose connection was reset', async () => {
    const env = await behindProxy(['reset-before', 'reset-after']);
    const result = await run(['inbox', 'categories'], { env });
    expect(result.code).toBe(0);
    expect(arrived('/v1/unibox/categories')).toBe(2); // the reset-after one arrived and was answered, then lost
  });

  it('does not re-send an unsafe POST after a reset: from here, "never arrived" and "arrived" look alike', async () => {
    const env = await behindProxy(['reset-before']);
    const result = await run(['api', 'POST', '/v1/webhook/create', '-f', 'name=x'], { env });
    expect(result.code).toBe(1);
    expect(arrived('/v1/webhook/create')).toBe(0);
    expect(result.stderr.split('\n')[0]).toBe(
      `error: POST /v1/webhook/create failed: connection closed by the server (${proxy!.baseUrl})`,
    );
  });

  it('never re-sends an unsafe POST that reached the service', async () => {
    for (const fault of ['reset-after', 'truncate'] as const) {
      const env = await behindProxy([fault]);
      const result = await run(['api', 'POST', '/v1/webhook/create', '-f', 'name=x'], { env });
      expect({ fault, code: result.code }).toEqual({ fault, code: 1 });
      expect(arrived('/v1/webhook/create')).toBe(1);
      await proxy!.close();
      await sb!.close();
    }
    sb = proxy = undefined;
  });
});

describe('the API key goes only to the configured origin', () => {
  it('refuses an absolute URL on another origin with exit 2, and that origin receives nothing', async () => {
    sb = await startTestSandbox();
    const seen: http.IncomingHttpHeaders[] = [];
    const other = http.createServer((req, res) => {
      seen.push(req.headers);
      res.end('{}');
    });
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const result = await run(['api', 'GET', `${otherUrl}/v1/dnc`], { env: sb.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `error: ${otherUrl}/v1/dnc is not on the configured API origin ${sb.baseUrl}; the API key is sent only there\n` +
          'hint: Give a path such as /v1/dnc, or point --base-url (or OUTREACH_BASE_URL) at that service.\n',
      );
      expect(seen).toEqual([]);
      // The same origin, written in full, is fine.
      const same = await run(['api', 'GET', `${sb.baseUrl}/v1/unibox/categories`], { env: sb.env });
      expect(same.code).toBe(0);
    } finally {
      other.close();
    }
  });

  it('takes a base URL that already ends in /v1', async () => {
    sb = await startTestSandbox();
    const result = await run(['inbox', 'categories'], { env: { ...sb.env, OUTREACH_BASE_URL: `${sb.baseUrl}/v1/` } });
    expect(result.code).toBe(0);
    expect(arrived('/v1/unibox/categories')).toBe(1);
  });
});

describe('a job that fails names the command that continues it', () => {
  it('prints the exact --resume command after a network failure, and the resume sends only the rest', async () => {
    sb = await startTestSandbox();
    let imports = 0;
    proxy = await startFaultProxy(sb.baseUrl, ({ method, path }) =>
      method === 'POST' && path.startsWith('/v1/prospects/import') && ++imports === 2 ? 'reset-after' : undefined,
    );
    const dir = tempDir('outreach-fail-');
    copyFileSync(new URL('../../fixtures/prospects/sample.csv', import.meta.url), join(dir, 'sample.csv'));
    const env = { OUTREACH_BASE_URL: proxy.baseUrl, OUTREACH_API_KEY: testKey };
    const argv = [
      '--max-retries',
      '0',
      'prospects',
      'import',
      'sample.csv',
      '--chunk-size',
      '10',
      '--concurrency',
      '1',
    ];
    const failed = await run([...argv, '--no-wait'], { env, cwd: dir });
    expect(failed.code).toBe(1);
    expect(failed.stderr.split('\n').slice(-2)).toEqual([
      'To continue: outreach --max-retries 0 prospects import sample.csv --chunk-size 10 --concurrency 1 --no-wait --resume',
      '',
    ]);
    const resumed = await run([...argv, '--no-wait', '--resume'], { env, cwd: dir });
    expect(resumed.code).toBe(0);
    // chunk 1 accepted, chunk 2 reached the service but its answer was lost, chunk 3 never sent: 1 + 1 + 2
    expect(proxy.log.filter((r) => r.path.startsWith('/v1/prospects/import')).length).toBe(4);
  });
});

describe('downloads', () => {
  const client = (baseUrl: string) => testHttpClient(baseUrl, { apiKey: testKey, timeoutMs: 5_000, maxRetries: 2 });

  it('streams a body to a file, and refuses one past the size cap without retrying', async () => {
    sb = await startTestSandbox();
    const http = client(sb.baseUrl);
    const path = join(tempDir(), 'categories.json');
    try {
      await http.send('GET', '/v1/unibox/categories', { replaySafe: true, saveTo: path });
      expect(JSON.parse(readFileSync(path, 'utf8')).payload[0]).toMatchObject({ key: 'uncategorized' });
      const error = await http
        .send('GET', '/v1/unibox/categories', { replaySafe: true, saveTo: path, maxBytes: 10 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toMatch(
        /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/unibox\/categories: the answer is larger than 0 MB$/,
      );
      expect(arrived('/v1/unibox/categories')).toBe(2);
    } finally {
      await http.close();
    }
  });
});
