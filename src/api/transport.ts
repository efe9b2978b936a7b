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
  /** The answer as it came (empty when it went to a file): its reader decodes it. */
  bytes: Buffer;
}

/** What cancels an exchange: a deadline, Ctrl-C. `onCancel` is told at once when it already is; what it returns
 * stops the listening, once the exchange has ended. */
export interface Cancellation {
  readonly aborted: boolean;
  onCancel(abort: () => void): () => void;
}

/** An AbortSignal as a Cancellation (one listener on it while the exchange lasts). */
export function cancelledBy(signal: AbortSignal): Cancellation {
  return {
    get aborted() {
      return signal.aborted;
    },
    onCancel(abort) {
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      return () => signal.removeEventListener('abort', abort);
    },
  };
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

interface Connector {
  module: typeof http | typeof https;
  agent: http.Agent;
}

export class Transport {
  private readonly connectors = new Map<string, Connector>();

  constructor(private readonly connectTimeoutMs: number) {}

  /** The module and keep-alive agent of a protocol: node:https loads on the first https request. */
  private async connectorFor(protocol: string): Promise<Connector> {
    const module = protocol === 'https:' ? await import('node:https') : http;
    let connector = this.connectors.get(protocol);
    if (!connector) {
      connector = { module, agent: new module.Agent({ keepAlive: true, keepAliveMsecs: 10_000 }) };
      this.connectors.set(protocol, connector);
    }
    return connector;
  }

  async exchange(
    method: string,
    url: URL,
    headers: Record<string, string>,
    body: RequestBody | undefined,
    cancel: Cancellation,
    maxBytes = Infinity,
    /** Where a success's body goes instead of memory (a download); made anew for each attempt. */
    sink?: () => Writable,
    /** Told once the connection is up (TLS included), for a spinner that said "connecting". */
    onConnected?: () => void,
  ): Promise<Exchange> {
    // Known after the first request: no wait for it then (one turn less a page of a list read by the ten thousand).
    const { module, agent } = this.connectors.get(url.protocol) ?? (await this.connectorFor(url.protocol));
    return new Promise<Exchange>((resolve, reject) => {
      const attempt = new Attempt(resolve, reject);
      const req = module.request({ ...target(url), method, headers, agent });
      const stop = cancel.onCancel(() =>
        req.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError' })),
      );
      req.once('close', stop);
      attempt.watchConnection(req, url, this.connectTimeoutMs, onConnected);
      req.on('response', (res) => attempt.read(req, res, maxBytes, sink));
      attempt.send(req, body);
    });
  }

  close(): void {
    for (const { agent } of this.connectors.values()) agent.destroy();
    this.connectors.clear();
  }
}

/** Where a request goes, as node:http's options: what it would make of the URL itself (urlToHttpOptions), less the
 * URL's whole text, which it serialises again for every request (some 60 ms of a list of 10,000 pages). */
function target(url: URL): http.RequestOptions {
  const { protocol, hostname, port, pathname, search, username, password } = url;
  return {
    protocol,
    // An IPv6 address is written in brackets in a URL, and without them to connect.
    hostname: hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    port: port === '' ? undefined : Number(port),
    path: pathname + search,
    auth: username || password ? `${decodeURIComponent(username)}:${decodeURIComponent(password)}` : undefined,
  };
}

/** One request and its answer: whether the connection came up (an error before it means nothing was sent), and a
 * local file that failed (the body's source, a download's sink), which decides how a failure is told. */
class Attempt {
  private connected = false;
  private localFailure: NodeJS.ErrnoException | undefined;

  constructor(
    private readonly resolve: (exchange: Exchange) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  readonly fail = (error: unknown): void => {
    if (this.localFailure) return this.reject(new LocalFileError(this.localFailure));
    if (error instanceof AnswerTooLarge) return this.reject(error);
    const code = errorCode(error);
    // A deadline or Ctrl-C before the socket connected: nothing reached the server either.
    const aborted = (error as Error)?.name === 'AbortError';
    const sent = this.connected || !(neverSentCodes.has(code) || isTlsFailure(code) || aborted);
    this.reject(new TransportError(code, sent, (error as Error)?.message));
  };

  /** A local file failed: the failure is told as that, whatever the connection does next. */
  readonly localFileFailed = (error: NodeJS.ErrnoException): void => {
    this.localFailure = error;
  };

  /** Notes when the connection is up, and gives up on one that takes longer than `timeoutMs`. A kept-alive socket
   * is up already: no timer is set for it (a page read by the ten thousand). */
  watchConnection(req: http.ClientRequest, url: URL, timeoutMs: number, onConnected?: () => void): void {
    let connectTimer: NodeJS.Timeout | undefined;
    req.on('socket', (socket) => {
      const onConnect = () => {
        this.connected = true;
        clearTimeout(connectTimer);
        onConnected?.();
      };
      if (!socket.connecting) return onConnect();
      connectTimer = setTimeout(() => {
        if (!this.connected) req.destroy(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' }));
      }, timeoutMs);
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', onConnect);
    });
    req.on('error', (error) => {
      clearTimeout(connectTimer);
      this.fail(error);
    });
  }

  send(req: http.ClientRequest, body: RequestBody | undefined): void {
    if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) return void req.end(body);
    if (!(body instanceof Readable)) return void this.pump(req, body).catch(this.fail);
    body.once('error', this.localFileFailed);
    pipeline(body, req).catch(this.fail);
  }

  /** Writes an iterable's pieces, each once the one before it has reached the socket: a source may reuse a piece's
   * memory for the next (a spool read into one buffer), and a large piece goes out without a JavaScript turn per
   * socket buffer. A piece that cannot be read is a local file failure; a write that fails is the request's error,
   * told by its 'error' event. A request that closes ends the pump even where a write's callback never comes (a write
   * after the socket was reset), and a write 'done' on a socket already destroyed was cancelled: the source is let go
   * either way, its file closed (by then no write holds its memory). */
  private async pump(req: http.ClientRequest, body: AsyncIterable<Uint8Array>): Promise<void> {
    const pieces = body[Symbol.asyncIterator]();
    const closed = new Promise<boolean>((resolve) => req.once('close', () => resolve(false)));
    try {
      for (;;) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await pieces.next();
        } catch (error) {
          this.localFileFailed(error as NodeJS.ErrnoException);
          return void req.destroy(error as Error);
        }
        if (next.done) return void req.end();
        const piece = next.value;
        const written = new Promise<boolean>((resolve) => req.write(piece, (error) => resolve(!error)));
        if (!(await Promise.race([written, closed])) || req.socket?.destroyed) return;
      }
    } finally {
      await pieces.return?.();
    }
  }

  /** The answer: a success with a sink streams to it, anything else is kept in memory; both within their limit. */
  read(req: http.ClientRequest, res: http.IncomingMessage, maxBytes: number, sink?: () => Writable): void {
    const status = res.statusCode ?? 0;
    const toFile = sink !== undefined && status >= 200 && status < 300;
    // Only a download streamed to a file may be larger than an answer kept in memory.
    const limit = toFile ? maxBytes : Math.min(maxBytes, maxAnswerBytes);
    const answer: Answer = {
      res,
      status,
      limit,
      tooLarge: () => new AnswerTooLarge(limit, toFile),
      /** Fails the exchange at once and closes the connection: nothing more of the answer is read. */
      refuse: () => {
        this.reject(answer.tooLarge());
        req.destroy();
      },
    };
    // An answer that says it is too large is refused before a byte of it is read.
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return answer.refuse();
    if (toFile) this.saveTo(sink(), answer);
    else this.keep(answer);
  }

  private saveTo(out: Writable, { res, status, limit, tooLarge }: Answer): void {
    let received = 0;
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > limit) done(tooLarge());
        else done(null, chunk);
      },
    });
    res.on('aborted', () => res.destroy(cutOff()));
    out.once('error', this.localFileFailed);
    pipeline(res, cap, out).then(
      () => (res.complete ? this.resolve({ status, headers: res.headers, bytes: noBytes }) : this.fail(cutOff())),
      this.fail,
    );
  }

  // Counted as the bytes arrive: past the limit the connection is closed and what came is dropped, so an endless
  // answer costs at most the limit, never a string too long to build.
  private keep({ res, status, limit, refuse }: Answer): void {
    let chunks: Buffer[] = [];
    let received = 0;
    res.on('data', (chunk: Buffer) => {
      if (received > limit) return;
      received += chunk.length;
      if (received <= limit) return void chunks.push(chunk);
      chunks = [];
      refuse();
    });
    res.on('error', this.fail);
    res.on('aborted', () => this.fail(cutOff()));
    res.on('end', () => {
      if (!res.complete) return this.fail(cutOff());
      // Most answers come in one piece: kept as it is, without a copy.
      this.resolve({ status, headers: res.headers, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
    });
  }
}

interface Answer {
  res: http.IncomingMessage;
  status: number;
  limit: number;
  tooLarge(): AnswerTooLarge;
  refuse(): void;
}

const noBytes = Buffer.alloc(0);

const cutOff = () => Object.assign(new Error('answer cut off'), { code: 'ECONNRESET' });

function errorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'ABORT_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'UNKNOWN';
}
