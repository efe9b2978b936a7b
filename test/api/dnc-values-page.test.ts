// A do-not-contact page read for its values (the lean reader, lean-json.ts) over real HTTP: a value in its lookup form
// comes hashed as it was read, values written with escapes and past ASCII come out as JSON.parse gives them, a success
// that is not JSON is retried as a cut-off answer, and a failure's body is read whole for its message.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { dncValuesReader } from '../../src/api/resources/dnc.js';
import { ListValueHash, listValueReader } from '../../src/io/list-value-hash.js';
import { hashed, hashText } from '../../src/io/text-hash.js';
import { testHttpClient } from '../helpers/http-client.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => new Promise((resolve) => (s.close(resolve), s.closeAllConnections()))),
  );
});

/** Answers each request with the next of `answers` (status and body bytes), counting the requests. */
async function serve(answers: Array<{ status: number; body: string | Buffer }>) {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    const answer = answers[Math.min(asked.length, answers.length) - 1]!;
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}`, asked };
}

const dncValuesPage = dncValuesReader(listValueReader, (v): v is ListValueHash => v instanceof ListValueHash);

const item = (value: string) => ({ id: 'x1', value, type: 'email', createdAt: '2026-01-01T00:00:00Z', addedBy: 'A' });
const pageOf = (values: string[]) =>
  JSON.stringify({ payload: { message: 'ok', dncDetails: values.map(item), meta: { totalPages: 4, totalItems: 7 } } });

describe('dncValuesPage', () => {
  it('gives each value as JSON.parse reads it, and the page count', async () => {
    const values = [
      'ann@acme.com',
      'J\u00f6rg@B\u00fccher.de',
      'say "hi"@x.com',
      'tab\there.example',
      '\ud83d\ude00.example',
    ];
    // JSON.stringify writes the quote, the tab and nothing else as escapes; \u0061 is written by hand.
    const body = pageOf(values).replace('ann@', '\\u0061nn@');
    const { baseUrl } = await serve([{ status: 200, body }]);
    const page = await dncValuesPage(testHttpClient(baseUrl), 'dnc1', { page: 2, pageSize: 100 });
    expect(page).toEqual({ items: values.map((value) => ({ value })), totalPages: 4 });
  });

  it('gives a value written as its lookup form by its hash, any other as its text', async () => {
    const { baseUrl } = await serve([{ status: 200, body: pageOf(['ann@acme.com', 'Bob@acme.com', 'www.acme.com']) }]);
    const page = await dncValuesPage(testHttpClient(baseUrl), 'dnc1', { page: 1, pageSize: 100 });
    hashText('ann@acme.com');
    expect(page.items).toEqual([
      { value: new ListValueHash(hashed[0]!, hashed[1]!) },
      { value: 'Bob@acme.com' },
      { value: 'www.acme.com' },
    ]);
  });

  it('retries a success whose JSON is cut off or garbled, as any cut-off answer', async () => {
    const good = pageOf(['Ann@acme.com']);
    const { baseUrl, asked } = await serve([
      { status: 200, body: good.slice(0, -3) },
      { status: 200, body: good.replace('"value"', '"value"?') },
      { status: 200, body: good },
    ]);
    const page = await dncValuesPage(testHttpClient(baseUrl, { maxRetries: 2 }), 'dnc1', { page: 1, pageSize: 100 });
    expect(page.items).toEqual([{ value: 'Ann@acme.com' }]);
    expect(asked).toHaveLength(3);

    const { baseUrl: again } = await serve([{ status: 200, body: good.slice(0, -3) }]);
    await expect(dncValuesPage(testHttpClient(again), 'dnc1', { page: 1, pageSize: 100 })).rejects.toThrow(
      /the answer was cut off or is not valid JSON/,
    );
  });

  it("reads a failure's whole body for its message", async () => {
    const message = 'pageSize must not be greater than 100';
    const { baseUrl } = await serve([{ status: 400, body: JSON.stringify({ message, code: 4001 }) }]);
    await expect(dncValuesPage(testHttpClient(baseUrl), 'dnc1', { page: 1, pageSize: 100 })).rejects.toThrow(message);
  });
});
