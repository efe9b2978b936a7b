// The sandbox server: one fixed pipeline for every request —
// auth (from the headers, before a byte of the body is read) -> read body (within a deadline) -> report files and
// control routes -> faults -> route -> validate with the contract -> handler -> answer.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { describeIssue } from '../api/contract/schema.js';
import { isLoopbackHost } from '../loopback.js';
import { BodyTooLarge, listenOn, readCappedBody } from '../net/local-server.js';
import { Store } from './store.js';
import { SandboxError } from './sandbox-error.js';
import { createFaultInjector, type FaultKind } from './faults.js';
import type { Route, SandboxRequest, SandboxResponse } from './route.js';
import type { SandboxResource } from './resource.js';
import { allRoutes, resources } from './resources/index.js';
import { reportsTable } from './resources/reports/index.js';
import { WebhookDispatcher } from './resources/webhooks/delivery.js';
import { triggerSample } from './resources/webhooks/events.js';
import { sandboxSettings, type GivenSettings, type SandboxSettings } from './settings.js';
import type { SandboxDb } from './db/sandbox-db.js';
import { openSandboxDb } from './open-state.js';

/** A sandbox: the key it accepts, its settings (the clock at least), and where its state lives. */
export type SandboxOptions = GivenSettings & {
  key: string;
  /** The state's database (open-state.ts), shared with any other process that opens it; default: one in memory. */
  db?: SandboxDb;
  /** Called as each request is logged, before its answer goes out (tests act on what arrived, not on a timer). */
  onRequest?: (entry: RequestLogEntry) => void;
};

export interface RequestLogEntry {
  method: string;
  path: string;
  status: number;
  fault?: FaultKind;
}

/** The largest request body the service accepts (import-with-field-name: 90 MB). */
export const maxBodyBytes = 90 * 1024 * 1024;
/** A request's body must have arrived in full this long after its headers (90 MB at 1.5 MB/s), waited on the sandbox's
 * clock: a sender that trickles it in is answered 408 and cut off, so it cannot hold a connection open. */
export const bodyDeadlineMs = 60_000;
const settledReason = new Error('the request was answered');
/** Of a body refused before it was read (no key, a wrong key), this much is read and dropped, so a client that sends
 * everything before it reads still gets the 401; past it the connection is cut. Nothing of it is kept. */
export const refusedBodyBytes = 1024 * 1024;
const logLimit = 2000;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  names: string[];
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const source = route.endpoint.path
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\\?\{(\w+)\\?\}/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { route, pattern: new RegExp(`^${source.replace(/[{}]/g, '')}$`), names };
}

function queryObject(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    // `progress[]=a&progress[]=b` and repeated keys both become arrays.
    out[key.replace(/\[\]$/, '')] = values.length > 1 || key.endsWith('[]') ? values : values[0];
  }
  return out;
}

export class Sandbox {
  readonly store: Store;
  /** The requests logged, trimmed to the last logLimit once it holds twice as many (trimming at every request moved
   * 2,000 entries each time). */
  private readonly logged: RequestLogEntry[] = [];
  private readonly routes: CompiledRoute[];
  private readonly nextFault: () => FaultKind | undefined;
  private server: Server | undefined;
  private clockOffset = 0;
  private readonly keyDigest: Buffer;
  /** Aborted when the server closes: answers still waiting out their latency or delay are dropped. */
  private readonly closing = new AbortController();
  origin = '';
  /** Where it listens; `origin` differs only when links are handed out on another host (a test's storage host). */
  private ownOrigin = '';

  private readonly settings: SandboxSettings;

  constructor(private readonly options: SandboxOptions) {
    this.keyDigest = digest(options.key);
    const settings = (this.settings = sandboxSettings(options));
    const clock = { now: () => settings.clock.now() + this.clockOffset };
    this.store = new Store(options.db ?? openSandboxDb(undefined), settings, clock);
    // A database in memory is this sandbox's own: it goes when the sandbox closes.
    if (!options.db) this.closing.signal.addEventListener('abort', () => this.store.db.close());
    const { sleep = settings.clock.sleep, ...delivery } = settings.webhookDelivery;
    this.store.webhooks = new WebhookDispatcher(this.store, { ...delivery, sleep });
    this.routes = allRoutes.map(compile);
    const faults = settings.faults;
    this.nextFault = faults && faults.rate > 0 ? createFaultInjector(faults) : () => undefined;
    // A fresh state gets the seed, in the transaction that finds it empty: two processes agree on one.
    this.store.transaction(() => {
      if (!this.store.db.meta('account')) this.seed();
    });
  }

  /** The last logLimit requests, oldest first. */
  get requestLog(): readonly RequestLogEntry[] {
    return this.logged.slice(-logLimit);
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer((req, res) => void this.handle(req, res));
    // `Expect: 100-continue`: the body is asked for only with the right key; without it the 401 comes first.
    server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
      if (this.keyProblem(req) === undefined) res.writeContinue();
      void this.handle(req, res);
    });
    server.keepAliveTimeout = 15_000;
    this.server = server;
    this.origin = this.ownOrigin = await listenOn(server, port, host);
    return this.origin;
  }

  /** Lets deliveries under way end (each has its deadline; `now` ends them at once, as Ctrl-C on `sandbox start`
   * does), saves what they changed (a paused webhook), stops. */
  async close(options: { now?: boolean } = {}): Promise<void> {
    if (options.now) this.store.webhooks?.stop();
    await this.store.webhooks?.idle();
    await this.store.run(() => undefined); // the last write (a webhook paused) has committed
    this.closing.abort();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Every record goes; the seed is laid down afresh, dated from the clock now. A resource with a table named in
   * `keep` keeps its records (and gets no seed over them): a benchmark keeps a million DNC values between runs. */
  reset(keep: string[] = []): void {
    this.clockOffset = 0;
    const kept = resources.filter((resource) => resource.tables.some((table) => keep.includes(table.name)));
    for (const resource of resources)
      if (!kept.includes(resource)) for (const table of resource.tables) this.store.table(table).clear();
    this.seed(kept);
  }

  private seed(except: SandboxResource[] = []): void {
    for (const resource of resources) if (!except.includes(resource)) resource.seed?.(this.store);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const method = req.method ?? 'GET';
    const wasCut = this.bodyDeadline(req, res, method, url.pathname);
    let fault: FaultKind | undefined;
    let answer: SandboxResponse;
    let authenticated = false;
    try {
      // The key is checked from the headers alone: a body without it is never read into memory. Report files need it
      // too (the client sends it to the API's own origin, which the sandbox is), unless the sandbox hands its links
      // out on another host, as the real service's pre-signed storage links are: there the name is the credential.
      const presigned = this.origin !== this.ownOrigin && method === 'GET' && url.pathname.startsWith('/files/');
      if (!presigned) {
        this.authenticate(req);
        authenticated = true;
      }
      // Uploads are read by their route, as a stream; everything else is read here.
      const multipart = String(req.headers['content-type'] ?? '').startsWith('multipart/form-data');
      const rawBody = multipart || presigned ? Buffer.alloc(0) : await readBody(req);
      if (url.pathname.startsWith('/files/')) answer = this.serveFile(url.pathname);
      else {
        if (url.pathname.startsWith('/_sandbox/')) {
          answer = await this.afterCommit(await this.store.run(() => this.control(method, url.pathname, rawBody)));
        } else {
          fault = this.nextFault();
          if (fault === 'delay' && !(await this.wait(this.settings.faults?.delayMs ?? 1500))) {
            req.socket.destroy(); // the sandbox is closing
            return;
          }
          if (fault === 'error500') throw new SandboxError(500, 5001, 'Internal server error, retry later');
          if (fault === 'rateLimit429')
            answer = {
              status: 429,
              body: new SandboxError(429, 4290, 'Too many requests').toBody(),
              headers: { 'retry-after': '1' },
            };
          else if (fault === 'unavailable503')
            answer = { status: 503, body: new SandboxError(503, 5030, 'Service unavailable').toBody() };
          else answer = await this.dispatch(method, url, req, rawBody);
        }
      }
    } catch (error) {
      answer = errorAnswer(error);
    }
    if (wasCut()) return; // answered 408 already
    this.log({ method, path: url.pathname, status: answer.status, fault });
    if (this.settings.latencyMs && !(await this.wait(this.settings.latencyMs))) {
      req.socket.destroy(); // the sandbox is closing
      return;
    }
    // The server saw and handled the request, then the connection drops: the client cannot know the outcome.
    if (fault === 'drop') {
      req.socket.destroy();
      return;
    }
    if (wasCut()) return;
    // The service's clock, as a real server's Date header gives it (doctor measures the skew against it).
    send(res, answer, this.store.clock.now());
    // A body refused before it was read (an upload with a bad key or to a wrong path) is read and dropped after the
    // answer, so the client gets it; without the key, only refusedBodyBytes of it before the connection is cut.
    if (!req.readableEnded) drop(req, authenticated ? Infinity : refusedBodyBytes);
  }

  /** Answers 408 and cuts the connection when the body has not arrived in full by the deadline (a refused body that is
   * still being dropped by then is cut without an answer, the answer having gone). The returned function says whether
   * it did. */
  private bodyDeadline(req: IncomingMessage, res: ServerResponse, method: string, path: string): () => boolean {
    const options = this.settings.bodyDeadline;
    let cut = false;
    // A request without a body (no length, not chunked: most GETs) has nothing to wait for, and costs no timer.
    const bodiless = req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
    if (options === false || bodiless) return () => cut;
    const ms = options.ms ?? bodyDeadlineMs;
    const sleep = options.sleep ?? this.settings.clock.sleep;
    const settled = new AbortController();
    // With a reason of its own: an abort without one builds a DOMException (a stack trace) every request.
    req.once('close', () => settled.abort(settledReason));
    res.once('close', () => req.complete && settled.abort(settledReason));
    sleep(ms, AbortSignal.any([settled.signal, this.closing.signal])).then(
      () => {
        if (req.complete || req.destroyed) return;
        cut = true;
        if (res.headersSent) return void req.socket.destroy();
        this.log({ method, path, status: 408 });
        const error = new SandboxError(408, 4080, `The request body did not arrive within ${ms / 1000} s`);
        res.once('finish', () => req.socket.destroy());
        send(res, { status: 408, body: error.toBody(), headers: { connection: 'close' } }, this.store.clock.now());
      },
      () => undefined,
    );
    return () => cut;
  }

  private authenticate(req: IncomingMessage): void {
    const problem = this.keyProblem(req);
    if (problem) throw new SandboxError(401, 1001, `Invalid token: ${problem}`, 'auth');
  }

  /** What is wrong with the request's key, if anything: read from its headers alone. */
  private keyProblem(req: IncomingMessage): string | undefined {
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string' || key.length === 0) return 'the x-api-key header is missing';
    // Compared in constant time (as digests, so that the lengths differ in nothing either).
    if (!timingSafeEqual(digest(key), this.keyDigest)) return 'the API key is not valid';
    return undefined;
  }

  /** The origin links are built on: the one the client reached the sandbox at (its Host), when it listens on every
   * address (0.0.0.0, ::) or was reached on this machine (directly, or through a local proxy), so that a report link is
   * on the client's base URL's origin and gets the key; else its own. A test's storage host stays as it is. */
  private linkOrigin(req: IncomingMessage): string {
    const host = req.headers.host;
    if (this.origin !== this.ownOrigin || !host || !/^([\w.-]+|\[[\da-f:.]+\]):\d+$/i.test(host)) return this.origin;
    const everywhere = /^http:\/\/(0\.0\.0\.0|\[::\]):\d+$/.test(this.origin);
    const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    return everywhere || isLoopbackHost(name) ? `http://${host}` : this.origin;
  }

  private async dispatch(method: string, url: URL, req: IncomingMessage, rawBody: Buffer): Promise<SandboxResponse> {
    const match = this.match(method, url.pathname);
    if (!match) throw new SandboxError(404, 4040, `Cannot ${method} ${url.pathname}`);
    const { route, params } = match;
    const e = route.endpoint;
    // The real service answers 406 to a GET or DELETE that carries a Content-Type header.
    if ((method === 'GET' || method === 'DELETE') && req.headers['content-type']) {
      throw new SandboxError(406, 4060, `${method} requests must not carry a Content-Type header`);
    }
    if (e.params) {
      const checked = e.params.safeParse(params);
      if (!checked.success)
        throw new SandboxError(400, 1001, `Validation failed: ${describeIssue(checked.error, 'path')}`);
    }
    let query: Record<string, unknown> = queryObject(url.searchParams);
    if (e.query) {
      const checked = e.query.safeParse(query);
      if (!checked.success)
        throw new SandboxError(400, 1001, `Validation failed: ${describeIssue(checked.error, 'query')}`);
      query = checked.data as Record<string, unknown>;
    }
    let body: unknown = undefined;
    if (rawBody.length > 0 && String(req.headers['content-type'] ?? '').includes('json')) {
      try {
        body = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new SandboxError(400, 1001, 'Validation failed: the body is not valid JSON');
      }
    }
    if (e.body) {
      const checked = e.body.safeParse(body ?? {});
      if (!checked.success)
        throw new SandboxError(400, 1001, `Validation failed: ${describeIssue(checked.error, 'body')}`);
      body = checked.data;
    }
    const request: SandboxRequest = {
      method,
      path: url.pathname,
      params,
      query,
      body,
      rawBody,
      headers: req.headers,
      origin: this.linkOrigin(req),
      incoming: req,
    };
    // A stream the route reads (an upload) is read before its transaction: a client that sends slowly holds no lock.
    if (route.prepare) request.prepared = await route.prepare(request);
    return this.afterCommit(await this.store.run(() => route.handle(request, this.store)));
  }

  private match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const compiled of this.routes) {
      if (compiled.route.endpoint.method !== method) continue;
      const found = compiled.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      compiled.names.forEach((name, i) => (params[name] = decodeURIComponent(found[i + 1]!)));
      return { route: compiled.route, params };
    }
    return undefined;
  }

  /** Report files, named by 128 random bits: served to the key on the sandbox's own origin (handle() says when not). */
  private serveFile(path: string): SandboxResponse {
    const id = /^\/files\/reports\/([\w-]+)\.csv$/.exec(path)?.[1];
    const report = id && this.store.table(reportsTable).get(id);
    if (!report) throw new SandboxError(404, 4040, `no file at ${path}`);
    return { status: 200, text: report.csv, contentType: 'text/csv; charset=utf-8' };
  }

  /** Test and demo controls: reset to the seed, read the request log, move the clock forward. */
  private async control(method: string, path: string, rawBody: Buffer): Promise<SandboxResponse> {
    if (method === 'POST' && path === '/_sandbox/reset') {
      const keep = (JSON.parse(rawBody.toString('utf8') || '{}') as { keep?: unknown }).keep;
      if (keep !== undefined && !(Array.isArray(keep) && keep.every((name) => typeof name === 'string')))
        throw new SandboxError(400, 1001, 'Validation failed: body.keep must be a list of table names');
      this.reset(keep);
      this.logged.length = 0;
      return { status: 200, body: { message: 'Sandbox reset to the seed data' } };
    }
    if (method === 'GET' && path === '/_sandbox/requests') return { status: 200, body: { requests: this.requestLog } };
    if (method === 'POST' && path === '/_sandbox/clock') {
      const advanceMs = Number((JSON.parse(rawBody.toString('utf8') || '{}') as { advanceMs?: unknown }).advanceMs);
      if (!Number.isFinite(advanceMs) || advanceMs < 0)
        throw new SandboxError(400, 1001, 'Validation failed: body.advanceMs must be a non-negative number');
      this.clockOffset += advanceMs;
      return { status: 200, body: { now: new Date(this.store.now()).toISOString() } };
    }
    if (method === 'POST' && path === '/_sandbox/webhooks/trigger')
      return {
        status: 200,
        followUp: () =>
          triggerSample(this.store, JSON.parse(rawBody.toString('utf8') || '{}') as Record<string, unknown>),
      };
    throw new SandboxError(404, 4040, `Cannot ${method} ${path}`);
  }

  private log(entry: RequestLogEntry): void {
    this.logged.push(entry);
    if (this.logged.length >= 2 * logLimit) this.logged.splice(0, this.logged.length - logLimit);
    this.options.onRequest?.(entry);
  }

  /** The answer once its follow-up (work outside the transaction) is done. */
  private async afterCommit(answer: SandboxResponse): Promise<SandboxResponse> {
    return answer.followUp ? answer.followUp() : answer;
  }

  /** Waits on the clock; false when the sandbox closed first. */
  private wait(ms: number): Promise<boolean> {
    return this.settings.clock.sleep(ms, this.closing.signal).then(
      () => true,
      () => false,
    );
  }
}

function errorAnswer(error: unknown): SandboxResponse {
  if (error instanceof SandboxError) return { status: error.status, body: error.toBody() };
  const message = error instanceof Error ? error.message : String(error);
  return { status: 500, body: new SandboxError(500, 5001, `Internal server error: ${message}`).toBody() };
}

function send(res: ServerResponse, answer: SandboxResponse, now: number): void {
  const headers: Record<string, string> = { date: new Date(now).toUTCString(), ...answer.headers };
  let payload = '';
  if (answer.text !== undefined) {
    payload = answer.text;
    headers['content-type'] = answer.contentType ?? 'text/plain; charset=utf-8';
  } else if (answer.body !== undefined) {
    payload = JSON.stringify(answer.body);
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(answer.status, headers);
  res.end(payload);
}

/** Reads and drops a body, without keeping any of it; past `limit` bytes the connection is cut. */
function drop(req: IncomingMessage, limit: number): void {
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > limit) req.socket.destroy();
  });
  req.resume();
}

/** Reads the whole body; past 90 MB it keeps draining (so the client sees the answer) but stops keeping bytes. */
async function readBody(req: IncomingMessage): Promise<Buffer> {
  try {
    return await readCappedBody(req, maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    const mb = (error.size / 1048576).toFixed(1);
    throw new SandboxError(400, 4000, `Request content of ${mb} MB exceeds the 90 MB limit`);
  }
}

/** A key as compared: its SHA-256, so that keys of other lengths differ in nothing but the comparison's outcome. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
