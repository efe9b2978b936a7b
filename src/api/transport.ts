// One HTTP exchange over node:http / node:https with keep-alive agents. Chosen over undici (npm, or Node's fetch) by
// start-up cost: a whole one-GET process is ~50 ms with node:http against ~185 ms with fetch on this machine
// (docs/architecture.md, "HTTP layer"). Errors carry a code and whether any byte of the request left this machine.
import http from 'node:http';
import type https from 'node:https';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isTlsFailure } from './retry-policy.js';

export type RequestBody = string | Uint8Array | AsyncIterable<Uint8Array> | Readable;

export interface Exchange {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export class TransportError extends Error {
  constructor(
    readonly code: string,
    /** False only when the request provably never reached the server. */
    readonly sent: boolean,
    message = code,
  ) {
    super(message);
  }
}

/** The most of an answer kept in memory (a JSON answer, an error body): 64 MiB. Past it the answer is cut off as it
 * arrives, before any string is built; a report streamed to a file has its own cap (`maxBytes`). */
export const maxAnswerBytes = 64 * 2 ** 20;

/** "64 MiB" for whole mebibytes, else the bytes. */
export function describeLimit(bytes: number): string {
  return bytes >= 2 ** 20 && bytes % 2 ** 20 === 0 ? `${bytes / 2 ** 20} MiB` : `${bytes} bytes`;
}

/** The answer grew past `limit` (or said it would, in Content-Length): reading stopped there. `saved`: it was going
 * to a file, not to memory. */
export class AnswerTooLarge extends TransportError {
  constructor(
    readonly limit: number,
    readonly saved: boolean,
  ) {
    super('TOO_LARGE', true, `answer larger than ${describeLimit(limit)}`);
  }
}

/** A local file failed: the request body could not be read (an input file that vanished or changed), or a download could not be
 * written (a full disk). Never retried as a network fault. */
export class LocalFileError extends Error {
  constructor(override readonly cause: NodeJS.ErrnoException) {
    super(cause.message);
  }
}

// Errors raised before a single byte left this machine: replaying them is always safe.
const neverSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
]);

export class Transport {
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly connectTimeoutMs: number) {}

  private async agentFor(protocol: string): Promise<{ module: typeof http | typeof https; agent: http.Agent }> {
    const module = protocol === 'https:' ? await import('node:https') : http;
    let agent = this.agents.get(protocol);
    if (!agent) this.agents.set(protocol, (agent = new module.Agent({ keepAlive: true, keepAliveMsecs: 10_000 })));
    return { module, agent };
  }

  // eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
  async exchange(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    signal: AbortSignal,
    maxBytes = Infinity,
    /** Where a success's body goes instead of memory (a download); made anew for each attempt. */
    sink?: () => Writable,
    /** Told once the connection is up (TLS included), for a spinner that said "connecting". */
    onConnected?: () => void,
  ): Promise<Exchange> {
    const { module, agent } = await this.agentFor(url.protocol);
    // eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
    return new Promise<Exchange>((resolve, reject) => {
      let connected = false;
      let localFailure: NodeJS.ErrnoException | undefined;
      const fail = (error: unknown) => {
        if (localFailure) return reject(new LocalFileError(localFailure));
        if (error instanceof AnswerTooLarge) return reject(error);
        const code = errorCode(error);
        // A deadline or Ctrl-C before the socket connected: nothing reached the server either.
        const aborted = (error as Error)?.name === 'AbortError';
        const sent = connected || !(neverSentCodes.has(code) || isTlsFailure(code) || aborted);
        reject(new TransportError(code, sent, (error as Error)?.message));
      };
      const req = module.request(url, { method, headers, agent, signal });
      const connectTimer = setTimeout(() => {
        if (!connected) req.destroy(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' }));
      }, this.connectTimeoutMs);
      req.on('socket', (socket) => {
        const onConnect = () => {
          connected = true;
          clearTimeout(connectTimer);
          onConnected?.();
        };
        if (!socket.connecting) onConnect();
        else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', onConnect);
      });
      req.on('error', (error) => {
        clearTimeout(connectTimer);
        fail(error);
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const toFile = sink !== undefined && status >= 200 && status < 300;
        // Only a download streamed to a file may be larger than an answer kept in memory.
        const limit = toFile ? maxBytes : Math.min(maxBytes, maxAnswerBytes);
        const tooLarge = () => new AnswerTooLarge(limit, toFile);
        /** Fails the exchange at once and closes the connection: nothing more of the answer is read. */
        const refuse = () => {
          reject(tooLarge());
          req.destroy();
        };
        // An answer that says it is too large is refused before a byte of it is read.
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > limit) return refuse();
        if (toFile) {
          let received = 0;
          const cap = new Transform({
            transform(chunk: Buffer, _encoding, done) {
              received += chunk.length;
              if (received > limit) done(tooLarge());
              else done(null, chunk);
            },
          });
          res.on('aborted', () => res.destroy(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' })));
          const out = sink();
          out.once('error', (error: NodeJS.ErrnoException) => (localFailure = error));
          pipeline(res, cap, out).then(
            () =>
              res.complete
                ? resolve({ status, headers: res.headers, text: '' })
                : fail(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' })),
            fail,
          );
          return;
        }
        // Counted as the bytes arrive: past the limit the connection is closed and what came is dropped, so an
        // endless answer costs at most the limit, never a string too long to build.
        let chunks: Buffer[] = [];
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          if (received > limit) return;
          received += chunk.length;
          if (received <= limit) return void chunks.push(chunk);
          chunks = [];
          refuse();
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' })));
        res.on('end', () => {
          if (!res.complete) return fail(Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' }));
          resolve({ status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) req.end(body);
      else {
        const source = body instanceof Readable ? body : Readable.from(body);
        source.once('error', (error: NodeJS.ErrnoException) => (localFailure = error));
        pipeline(source, req).catch(fail);
      }
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'UNKNOWN';
}
