// Where an exchange goes: the transport gives node:http the URL's parts, not the URL, so each must arrive as the URL
// says: an IPv6 literal without its brackets to connect and with them in Host, the path with its query as written.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cancelledBy, Transport } from '../../src/api/transport.js';

async function serverOn(host: string) {
  const seen: Array<{ url?: string; host?: string; remote?: string }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url, host: req.headers.host, remote: req.socket.remoteAddress });
    res.end('{}');
  });
  server.listen(0, host);
  await once(server, 'listening');
  return { server, seen, port: (server.address() as AddressInfo).port };
}

const path = '/v1/dnc/list%201?type=all&page=2&search=a%2Bb';

/** A GET of a path with a query through the transport, to a server on `host`: what the server saw. */
async function exchangeOn(host: string, base: (port: number) => string) {
  const { server, seen, port } = await serverOn(host);
  const transport = new Transport(5_000);
  try {
    const url = new URL(`${base(port)}${path}`);
    const answer = await transport.exchange('GET', url, {}, undefined, cancelledBy(AbortSignal.timeout(30_000)));
    return { status: answer.status, seen, host: url.host };
  } finally {
    transport.close();
    server.close();
  }
}

describe('an exchange', () => {
  it('to 127.0.0.1 reaches it with the path, the query and the Host header the URL gives', async () => {
    const { status, seen, host } = await exchangeOn('127.0.0.1', (port) => `http://127.0.0.1:${port}`);
    expect(status).toBe(200);
    expect(seen).toEqual([{ url: path, host, remote: '127.0.0.1' }]);
  });

  it('to [::1] connects to ::1, with the brackets in the Host header only', async (test) => {
    // A machine without IPv6 loopback (some containers) cannot hold this server.
    const listening = await serverOn('::1').then(
      ({ server }) => (server.close(), true),
      () => false,
    );
    if (!listening) return test.skip();
    const { status, seen, host } = await exchangeOn('::1', (port) => `http://[::1]:${port}`);
    expect(status).toBe(200);
    expect(seen).toEqual([{ url: path, host, remote: '::1' }]);
  });
});
