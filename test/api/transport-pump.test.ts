// A body given as pieces (an import chunk's spool) is let go whatever happens to the request: after a connection reset
// part-way through it, the source's finally runs (its file closed, its buffer handed back), and no write is left
// waiting for ever.
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cancelledBy, Transport, TransportError } from '../../src/api/transport.js';

describe('a body sent in pieces', () => {
  it('is let go when the server resets the connection part-way through it', async () => {
    // The server reads a little of the body, then resets the connection.
    const server = http.createServer((req) => {
      req.once('data', () => req.socket.resetAndDestroy());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    let piecesSent = 0;
    let released!: () => void;
    const letGo = new Promise<void>((resolve) => (released = resolve));
    // 64 pieces of 1 MiB: far more than the socket buffers hold, so the reset comes while writes are pending.
    async function* pieces() {
      const piece = new Uint8Array(1024 * 1024).fill(0x20);
      try {
        for (; piecesSent < 64; piecesSent++) yield piece;
      } finally {
        released();
      }
    }
    const transport = new Transport(5_000);
    try {
      const exchange = transport.exchange(
        'POST',
        new URL(`http://127.0.0.1:${port}/v1/import`),
        { 'content-type': 'application/json' },
        pieces(),
        cancelledBy(AbortSignal.timeout(60_000)),
      );
      await expect(exchange).rejects.toBeInstanceOf(TransportError);
      await letGo;
      expect(piecesSent).toBeLessThan(64);
    } finally {
      transport.close();
      server.close();
    }
  });
});
