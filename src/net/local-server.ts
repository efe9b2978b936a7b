// What the tool's two local HTTP servers share (the sandbox, and the receiver of `webhooks listen`): binding to an
// address, with why it failed told apart, and reading a request body within a limit.
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The address could not be bound: taken, privileged, or not this machine's. */
export class ListenFailed extends Error {
  constructor(
    readonly reason: 'in-use' | 'privileged' | 'not-local',
    readonly port: number,
    readonly host: string,
  ) {
    super(`cannot listen on ${host}:${port}: ${reason}`);
  }
}

const reasons: Record<string, ListenFailed['reason']> = {
  EADDRINUSE: 'in-use',
  EACCES: 'privileged',
  EADDRNOTAVAIL: 'not-local',
};

/** Binds `server` to `host`:`port` (0 picks a free port); resolves with its origin, an IPv6 address in brackets. */
export async function listenOn(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const reason = reasons[error.code ?? ''];
      reject(reason ? new ListenFailed(reason, port, host) : error);
    });
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
}

/** A body past the limit: what was kept is dropped, the rest was drained so the sender hears the answer. */
export class BodyTooLarge extends Error {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(`a body of ${size} bytes, over the limit of ${limit}`);
  }
}

/** The whole body of `req`, kept up to `maxBytes` (past them it is drained, then BodyTooLarge); a sender that has not
 * finished after `timeoutMs` is cut off. */
export function readCappedBody(req: IncomingMessage, maxBytes: number, timeoutMs?: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => req.destroy(new Error('the sender stopped sending')), timeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (size > maxBytes) reject(new BodyTooLarge(size, maxBytes));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // A sender gone before the end: nothing more comes (settled already, this does nothing).
    req.on('close', () => {
      clearTimeout(timer);
      if (!req.complete) reject(Object.assign(new Error('the sender went away'), { code: 'ECONNRESET' }));
    });
  });
}
