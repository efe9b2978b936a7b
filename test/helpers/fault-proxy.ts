// A fault-injecting HTTP proxy on 127.0.0.1:0 in front of a sandbox: the network as it really behaves. Each request
// gets the fault its plan names (by the request's number and path), so a test says exactly what breaks, and the
// sandbox behind it shows afterwards what really arrived.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';
import { seededRandom } from '../../src/sandbox/prng.js';

export type ProxyFault =
  /** The connection is closed before anything is forwarded: the service never sees the request. */
  | 'reset-before'
  /** The request reaches the service, then the connection is closed instead of the answer. */
  | 'reset-after'
  /** The request reaches the service; half of its answer comes back, then the connection closes cleanly. */
  | 'truncate'
  /** The proxy answers 429 with Retry-After: 1, the service never sees the request. */
  | 'rate-limit'
  /** The answer is held for `delayMs` first. */
  | 'delay'
  /** The request reaches the service; its answer is held until release() (a request "in flight" on demand). */
  | 'hold'
  /** A read that lags behind (a cache, an eventually consistent service): the first such request for a method and
   * URL reaches the service and its answer is kept; later ones get that kept answer, the service never sees them. */
  | 'stale';

export type FaultPlan = (request: { n: number; method: string; path: string }) => ProxyFault | undefined;

export interface FaultProxy {
  baseUrl: string;
  /** What happened to each request, in arrival order. */
  log: Array<{ n: number; method: string; path: string; fault?: ProxyFault; withKey: boolean }>;
  /** Resolves once `count` answers are being held. */
  held(count: number): Promise<void>;
  /** Sends every held answer on. */
  release(): void;
  close(): Promise<void>;
}

/** A seeded plan: `rate` of the requests whose path matches get one of `faults`, reproducibly. */
export function randomPlan(rate: number, seed: number, faults: ProxyFault[], path = /./): FaultPlan {
  const random = seededRandom(seed);
  return ({ path: p }) => {
    const hit = random() < rate;
    const fault = faults[Math.floor(random() * faults.length)]!;
    return hit && path.test(p) ? fault : undefined;
  };
}

export async function startFaultProxy(upstream: string, plan: FaultPlan, delayMs = 20): Promise<FaultProxy> {
  const target = new URL(upstream);
  const log: FaultProxy['log'] = [];
  const sockets = new Set<Socket>();
  let count = 0;
  let holding: Array<() => void> = [];
  let heldWaiter: { count: number; resolve: () => void } | undefined;
  /** The answers 'stale' keeps, by method and URL. */
  const kept = new Map<string, { status: number; headers: http.IncomingHttpHeaders; body: Buffer }>();
  const hold = () =>
    new Promise<void>((resolve) => {
      holding.push(resolve);
      if (heldWaiter && holding.length >= heldWaiter.count) heldWaiter.resolve();
    });

  const forward = (req: http.IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      const out = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const n = ++count;
    const path = new URL(req.url!, 'http://proxy').pathname;
    const fault = plan({ n, method: req.method!, path });
    log.push({ n, method: req.method!, path, ...(fault ? { fault } : {}), withKey: 'x-api-key' in req.headers });
    if (fault === 'reset-before') return req.socket.destroy();
    if (fault === 'rate-limit') {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      return res.end(JSON.stringify({ error: 'Too many requests', code: 4290 }));
    }
    if (fault === 'delay') await new Promise((resolve) => setTimeout(resolve, delayMs));
    const staleKey = `${req.method} ${req.url}`;
    const answer = (fault === 'stale' && kept.get(staleKey)) || (await forward(req, Buffer.concat(chunks)));
    if (fault === 'stale' && !kept.has(staleKey)) kept.set(staleKey, answer);
    if (fault === 'hold') await hold();
    // The client may have gone while the answer was held or on its way (a killed CLI): nothing left to answer.
    res.on('error', () => undefined);
    if (req.socket.destroyed) return;
    if (fault === 'reset-after') return req.socket.destroy();
    if (fault === 'truncate') {
      // No length and no chunking: the body ends where the connection does, so the cut looks like a whole answer.
      const half = answer.body.subarray(0, Math.floor(answer.body.length / 2));
      const head = `HTTP/1.1 ${answer.status} OK\r\ncontent-type: ${answer.headers['content-type']}\r\nconnection: close\r\n\r\n`;
      req.socket.end(Buffer.concat([Buffer.from(head), half]));
      return;
    }
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    res.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
    res.end(answer.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const release = () => {
    const waiting = holding;
    holding = [];
    for (const resume of waiting) resume();
  };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    log,
    release,
    held: (n) =>
      holding.length >= n ? Promise.resolve() : new Promise((resolve) => (heldWaiter = { count: n, resolve })),
    async close() {
      release();
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
