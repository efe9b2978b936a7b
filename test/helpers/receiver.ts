// A webhook receiver on 127.0.0.1:0 for tests: records every delivery (headers and JSON body) and answers with the
// status `answer` gives (a number), or never answers ('hang').
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { once } from 'node:events';

export interface ReceivedDelivery {
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface Receiver {
  url: string;
  deliveries: ReceivedDelivery[];
  answer: number | 'hang';
  /** Resolves once `count` deliveries have arrived (a test waits on arrivals, not on a timer). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: number | 'hang' = 200): Promise<Receiver> {
  const sockets = new Set<Socket>();
  let watchers: Array<() => void> = [];
  const receiver: Receiver = {
    url: '',
    deliveries: [],
    answer,
    received: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (receiver.deliveries.length < count) return;
          watchers = watchers.filter((w) => w !== check);
          resolve();
        };
        watchers.push(check);
        check();
      }),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      receiver.deliveries.push({ headers: req.headers, body: text ? JSON.parse(text) : undefined });
      for (const watcher of [...watchers]) watcher();
      if (receiver.answer !== 'hang') res.writeHead(receiver.answer).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
