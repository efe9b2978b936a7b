// An address on loopback where nothing listens, for "connection refused" cases. A fixed port (9, discard) is not
// safe: anything on the machine may be listening there. A port the kernel just handed out and took back is.
import { createServer } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

export async function refusingUrl(): Promise<string> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return `http://127.0.0.1:${port}`;
}
