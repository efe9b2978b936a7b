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

describe('an exchange', () => {
  it.each([
    ['127.0.0.1', (port: number) => `http://127.0.0.1:${port}`, '127.0.0.1'],
    ['::1', (port: number) => `http://[::1]:${port}`, '::1'],
  ])('to %s reaches it with the path, the query and the Host header the URL gives', async (host, base, remote) => {
    const { server, seen, port } = await serverOn(host);
    const transport = new Transport(5_000);
    try {
      const url = new URL(`${base(port)}/v1/dnc/list%201?type=all&page=2&search=a%2Bb`);
      const answer = await transport.exchange('GET', url, {}, undefined, cancelledBy(AbortSignal.timeout(30_000)));
      expect(answer.status).toBe(200);
      expect(seen).toEqual([{ url: '/v1/dnc/list%201?type=all&page=2&search=a%2Bb', host: url.host, remote }]);
    } finally {
      transport.close();
      server.close();
    }
  });
});
