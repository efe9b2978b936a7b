// Answers have a size limit (issue 27 item 7) and report links are https or http to this machine (item 9): a fake
// service on 127.0.0.1 answers without end, or says it will send 600 MB; a report link points elsewhere.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maxAnswerBytes } from '../../src/api/transport.js';
import { RefusedLink } from '../../src/errors.js';
import { reportTarget, withReport } from '../../src/jobs/report.js';
import { testHttpClient } from '../helpers/http-client.js';
import { run } from '../helpers/run.js';
import { testKey } from '../helpers/sandbox.js';

interface FakeService {
  baseUrl: string;
  /** Bytes of body the service got written before the client went away. */
  written(): number;
  /** Resolves once the client closed the connection. */
  closed: Promise<void>;
  requests: number;
  close(): Promise<void>;
}

/** Answers every request with `status` and a JSON body that never ends, written chunk by chunk as the client reads
 * (never allocated whole), until the client disconnects. `declared` sends a Content-Length instead of chunking. */
async function startEndlessService(status = 200, declared?: number): Promise<FakeService> {
  let written = 0;
  let requests = 0;
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const chunk = Buffer.from(`"${'x'.repeat(64 * 1024 - 3)}",`);
  const server = http.createServer((_req, res) => {
    requests++;
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(declared ? { 'content-length': String(declared) } : {}),
    });
    res.write('{"payload":[');
    let open = true;
    res.on('close', () => {
      open = false;
      markClosed();
    });
    const pump = () => {
      // Bounded whatever happens: a client that never stopped reading would end the test, not the machine.
      while (open && written < maxAnswerBytes * 2) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (open) res.end(']}');
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    written: () => written,
    closed,
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let service: FakeService | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await service?.close();
  service = undefined;
});

const env = (baseUrl: string) => ({ OUTREACH_BASE_URL: baseUrl, OUTREACH_API_KEY: testKey });

describe('an answer past the limit', () => {
  it('is cut off as it arrives: one error line and a hint, no stack trace, exit 1, read once', async () => {
    service = await startEndlessService();
    const result = await run(['api', 'GET', '/v1/unibox/categories'], { env: env(service.baseUrl) });
    expect(result.code).toBe(1);
    await service.closed;
    expect(result.stdout).toBe('');
    const host = new URL(service.baseUrl).host;
    expect(result.stderr).toBe(
      `error: GET /v1/unibox/categories: the answer from ${host} is larger than 64 MiB; it was not read past that\n` +
        'hint: No answer of the API is that large: check the base URL (`outreach auth status`); --debug shows the request.\n',
    );
    // The client stopped reading at the limit: what the service got out is the limit and what the sockets held.
    expect(service.written()).toBeGreaterThan(maxAnswerBytes);
    expect(service.written()).toBeLessThan(maxAnswerBytes + 8 * 2 ** 20);
    // Not retried: the next answer would be as large.
    expect(service.requests).toBe(1);
  });

  it('is refused before a byte of it is read when its Content-Length says so', async () => {
    service = await startEndlessService(200, 600_000_000);
    const result = await run(['api', 'GET', '/v1/unibox/categories'], { env: env(service.baseUrl) });
    expect(result.code).toBe(1);
    await service.closed;
    expect(result.stderr.split('\n')[0]).toMatch(/: the answer from 127\.0\.0\.1:\d+ is larger than 64 MiB; /);
    expect(service.written()).toBeLessThan(8 * 2 ** 20);
  });

  it('holds for an error answer too (a 500 with an endless body)', async () => {
    service = await startEndlessService(500);
    const result = await run(['api', 'GET', '/v1/unibox/categories', '--max-retries', '0'], {
      env: env(service.baseUrl),
    });
    expect(result.code).toBe(1);
    await service.closed;
    expect(result.stderr.split('\n')[0]).toMatch(/: the answer from 127\.0\.0\.1:\d+ is larger than 64 MiB; /);
    expect(result.stderr).not.toMatch(/ERR_STRING_TOO_LONG|\n\s+at /);
    expect(service.written()).toBeLessThan(maxAnswerBytes + 8 * 2 ** 20);
  });
});

describe('a report link', () => {
  const api = { origin: 'https://api.example.test' };

  it('is followed over https, over http only to this machine, and on the API origin', () => {
    expect(reportTarget(api, 'https://storage.example.test/r.csv?sig=1').host).toBe('storage.example.test');
    expect(reportTarget(api, 'http://127.0.0.1:9/r.csv').host).toBe('127.0.0.1:9');
    expect(reportTarget(api, 'http://localhost:9/r.csv').host).toBe('localhost:9');
    expect(reportTarget(api, 'http://[::1]:9/r.csv').host).toBe('[::1]:9');
    expect(reportTarget(api, '/files/reports/1.csv').origin).toBe('https://api.example.test');
  });

  it.each([
    ['http://10.0.0.1/files/r.csv', '10.0.0.1'],
    ['http://example.invalid/r.csv', 'example.invalid'],
    ['http://127.0.0.1.example.invalid/r.csv', '127.0.0.1.example.invalid'],
    ['ftp://storage.example.test/r.csv', 'storage.example.test'],
    ['file:///etc/passwd', 'file:///etc/passwd'],
  ])('%s is refused, naming %s', (link, named) => {
    expect(() => reportTarget(api, link)).toThrow(`the report link to ${named} is not https;`);
  });

  it('elsewhere over plain http is never requested: no connection is attempted', async () => {
    const request = vi.spyOn(http, 'request');
    const client = testHttpClient('http://127.0.0.1:9', { apiKey: testKey });
    try {
      const use = vi.fn();
      const error = await withReport(client, 'http://10.0.0.1/files/reports/1.csv', use).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RefusedLink);
      expect((error as Error).message).toBe(
        'the report link to 10.0.0.1 is not https; only https links (or http to this machine) are followed, ' +
          'so nothing was sent to it',
      );
      // And the one sender refuses it too, should another caller ask for it.
      const sent = await client
        .send('GET', 'http://example.invalid/r.csv', { replaySafe: true, withoutKey: true })
        .catch((e: unknown) => e);
      expect(sent).toBeInstanceOf(RefusedLink);
      expect(use).not.toHaveBeenCalled();
      expect(request).not.toHaveBeenCalled();
    } finally {
      await client.close();
    }
  });
});
