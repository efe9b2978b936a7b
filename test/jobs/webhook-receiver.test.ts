// The receiver of `webhooks listen`, alone: it answers, judges and forwards each delivery, and hands every one over.
import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookReceiver, type Delivery, type ReceiverOptions } from '../../src/jobs/webhook-receiver.js';
import { listenOn } from '../../src/net/local-server.js';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function receiver(options: Partial<ReceiverOptions> = {}) {
  const warnings: string[] = [];
  const receiver = new WebhookReceiver({
    kinds: new Set(),
    checks: [],
    forwardTimeoutMs: 5_000,
    clock: { now: () => Date.UTC(2026, 10, 18, 12), sleep: () => Promise.resolve() },
    signal: new AbortController().signal,
    problem: (message) => warnings.push(message),
    ...options,
  });
  const url = await receiver.listen(0, '127.0.0.1');
  const delivered: Delivery[] = [];
  const taking = (async () => {
    for await (const delivery of receiver.deliveries()) delivered.push(delivery);
  })();
  open.push({ close: async () => (await receiver.close(), await taking) });
  return {
    url,
    warnings,
    delivered,
    stop: async () => (await receiver.close(), await taking),
    counts: receiver.counts,
  };
}

/** A handler that answers `status` (and `location`), and keeps what it was sent. */
async function handler(status: number, location?: string) {
  const got: Array<{ headers: Record<string, unknown>; body: string }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status, location ? { location } : {}).end();
    });
  });
  const url = await listenOn(server, 0, '127.0.0.1');
  open.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return { url, got };
}

/** A POST through node:http, which sends hop-by-hop headers as given (fetch refuses them); resolves with its status. */
function post(url: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('webhook receiver', () => {
  it('refuses a delivery over 1 MB with 413 and says why, handing nothing over', async () => {
    const r = await receiver();
    expect(await post(r.url, 'x'.repeat(1024 * 1024 + 1))).toBe(413);
    await r.stop();
    expect(r.warnings).toEqual(['a delivery could not be read: a delivery of 1048577 bytes, over 1 MB']);
    expect(r.delivered).toEqual([]);
  });

  it('refuses without the checked header, and tells a replay from a new event', async () => {
    const r = await receiver({ checks: [['x-secret', 's3cr3t']] });
    const event = JSON.stringify({ event: 'task-updated', eventId: 'e1', webhook: { id: 'wh1' } });
    expect(await post(r.url, event)).toBe(401);
    expect(await post(r.url, event, { 'x-secret': 's3cr3t' })).toBe(200);
    expect(await post(r.url, event, { 'x-secret': 's3cr3t' })).toBe(200);
    await r.stop();
    expect(r.delivered.map((d) => [d.rejected, d.replay])).toEqual([
      ['header x-secret missing', undefined],
      [undefined, undefined],
      [undefined, true],
    ]);
    expect(r.counts).toEqual({ received: 3, refused: 1, ignored: 0, replayed: 1 });
  });

  it('forwards without hop-by-hop headers, and shows a redirect as the answer instead of following it', async () => {
    const target = await handler(200);
    const redirecting = await handler(302, target.url);
    const r = await receiver({ forwardTo: redirecting.url });
    await post(r.url, JSON.stringify({ event: 'email-sent' }), { 'x-trace': 't1', 'keep-alive': 'timeout=5' });
    await r.stop();
    expect(r.delivered[0]!.forwarded).toEqual({ status: 302 });
    expect(redirecting.got).toHaveLength(1);
    expect(redirecting.got[0]!.headers).toMatchObject({ 'x-trace': 't1' });
    expect(redirecting.got[0]!.headers).not.toHaveProperty('keep-alive');
    expect(redirecting.got[0]!.body).toBe('{"event":"email-sent"}');
    expect(target.got).toEqual([]);
  });

  it('takes any JSON a sender sends: an event that is an object is shown as its JSON, never a crash', async () => {
    const r = await receiver();
    expect(await post(r.url, '{"event":{"toString":1},"webhook":{"name":{"valueOf":2}}}')).toBe(200);
    await r.stop();
    expect(r.delivered[0]!.event).toBe('{"toString":1}');
    expect(r.counts.received).toBe(1);
  });

  it('says a handler that cannot be reached by its error code', async () => {
    const gone = await handler(200);
    await open.pop()!.close();
    const r = await receiver({ forwardTo: gone.url });
    await post(r.url, '{"event":"email-sent"}');
    await r.stop();
    expect(r.delivered[0]!.forwarded).toEqual({ error: 'ECONNREFUSED' });
  });
});
