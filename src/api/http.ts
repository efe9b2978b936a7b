// The one request sender: base URL, x-api-key, timeouts, the retry policy, error decoding and the --debug log.
// Every resource module and `outreach api` go through HttpClient.send.
import { createWriteStream, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Clock } from '../context.js';
import { clockTime } from '../clock-time.js';
import { decodeErrorResponse } from './error-body.js';
import { Interrupted, NetworkError, OutreachError, RefusedLink, UsageError } from '../errors.js';
import {
  AnswerTooLarge,
  describeLimit,
  LocalFileError,
  maxAnswerBytes,
  Transport,
  TransportError,
  type RequestBody,
} from './transport.js';
import { isFollowableLink } from '../loopback.js';
import { notJson, parseJsonKeeping, type KeptMembers } from './lean-json.js';
import { RequestWatches } from './request-watch.js';
import { backoffDelay, isTlsFailure, parseRetryAfter, retryDecision, type AttemptOutcome } from './retry-policy.js';

/** The most of an answer the client keeps in memory (64 MiB); larger answers fail with exit 1. */
export { maxAnswerBytes };

export interface HttpConfig {
  baseUrl: string;
  apiKey: string;
  /** Whole-request limit (connect, send, answer), in ms. */
  timeoutMs: number;
  connectTimeoutMs: number;
  /** Where the base URL was set ("--base-url", "OUTREACH_BASE_URL", a profile): named when it cannot be reached. */
  baseUrlSource?: string;
  /** Who this client talks to when its address and key change from run to run (the in-process --sandbox, on a new
   * port with a new key each time): what a job's journal is bound to instead. */
  identity?: { service: string; account: string };
  maxRetries: number;
  /** How long one request may wait out 429 answers in all, in ms; read per request (jobs wait longer). */
  rateLimitWaitMs: () => number;
  /** Told once per burst of 429s when a wait starts, with when the budget runs out. */
  onRateLimitWait?: (waitMs: number, giveUpAt: number) => void;
  clock: Clock;
  random: () => number;
  /** Aborted: no new attempt starts, no retry waits. */
  signal: AbortSignal;
  /** Abort a request already in flight, any of them; `signal` by default. A job keeps its requests in flight past a
   * first Ctrl-C. */
  requestSignals?: () => readonly AbortSignal[];
  userAgent: string;
  /** What a request is waiting for now ("connecting to host", "rate-limited, retrying at 14:02:10"), for a spinner;
   * undefined once no request is under way. */
  activity?: (text: string | undefined) => void;
  /** Receives one line per attempt and retry decision; the key is never part of it. */
  debug?: (line: string) => void;
}

export type QueryValue = string | number | boolean | undefined | null | ReadonlyArray<string | number>;
export type Query = Readonly<Record<string, QueryValue>>;

/** A request body that can be produced again for a replay. */
export type BodySource = string | Uint8Array | (() => AsyncIterable<Uint8Array> | Readable);

export interface SendOptions {
  query?: Query;
  /** JSON value, serialised once. */
  json?: unknown;
  /** Pre-serialised JSON (or a factory of its bytes) for large bodies. */
  jsonBody?: BodySource;
  form?: FormData;
  replaySafe: boolean;
  /** Per-request override of the whole-request timeout. */
  timeoutMs?: number;
  /** Sent without the API key, so it may go to another origin: report links on storage hosts. */
  withoutKey?: boolean;
  /** An answer longer than this fails (not retried). One kept in memory never passes maxAnswerBytes (64 MiB). */
  maxBytes?: number;
  /** Write a success's body to this file (0600, rewritten by each attempt) instead of keeping it in memory. */
  saveTo?: string;
  /** A success's JSON is read keeping only these members (lean-json.ts): for pages read by the thousand. */
  keepOnly?: KeptMembers;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** An earlier attempt may have reached the service before its answer was lost: this answer is to a replay. */
  replayed?: boolean;
}

const retryMaxDelayMs = 8_000;
/** A Retry-After on a 5xx longer than this is not waited out: the user is told instead. */
const retryAfterCeilingMs = 60_000;

export class HttpClient {
  private readonly transport: Transport;
  private readonly watches = new RequestWatches();
  readonly origin: string;
  /** The base URL without a final slash, which every path is put after. */
  private readonly base: string;
  /** Requests on the wire now (after Ctrl-C, a job waits for these). */
  inFlight = 0;
  /** Calls to send() not yet returned: the spinner is cleared when none is left. */
  private busy = 0;
  /** The service has answered once in this run: a refused connection is then a restart worth waiting out. */
  private answered = false;

  constructor(readonly config: HttpConfig) {
    this.transport = new Transport(config.connectTimeoutMs);
    this.origin = new URL(config.baseUrl).origin;
    this.base = config.baseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: Query, withoutKey = false): URL {
    const absolute = /^https?:\/\//i.test(path);
    const href = absolute ? path : this.base + (path.startsWith('/') ? path : `/${path}`);
    const given = Object.entries(query ?? {}).filter(
      ([, value]) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0),
    );
    let url: URL;
    // Parsed once with its query, where it can be: a list read by the ten thousand pages parsed each URL twice.
    if (!given.length) url = new URL(href);
    // (Not where the path has a query, a fragment, or a space or control character, which the parser drops at an end.)
    // eslint-disable-next-line no-control-regex -- control characters are what is looked for
    else if (!/[?#\x00-\x20]/.test(href)) url = new URL(`${href}?${queryText(given)}`);
    else {
      // Parsed first: a query of the path's own has the given one set into it (a name in both takes the given value).
      url = new URL(href);
      url.search = withParams(new URLSearchParams(url.search), given).toString();
    }
    // A path under the base URL cannot leave its origin (the base's own "/" ends its host); a whole URL can.
    if (!absolute) return url;
    // The key travels with every request, so a request never leaves for another origin.
    if (url.origin !== this.origin && !withoutKey)
      throw new UsageError(
        `${url.origin}${url.pathname} is not on the configured API origin ${this.origin}; the API key is sent only there`,
        'Give a path such as /v1/dnc, or point --base-url (or OUTREACH_BASE_URL) at that service.',
      );
    // Without the key, a link elsewhere (a report on a storage host) is still a request the service chose: https
    // only, or plain http to this machine.
    if (url.origin !== this.origin && !isFollowableLink(url)) throw new RefusedLink(url.href, url.host);
    return url;
  }

  async send(method: string, path: string, options: SendOptions): Promise<HttpResponse> {
    const url = this.url(path, options.query, options.withoutKey);
    this.busy++;
    try {
      return await this.sendWithRetries(method, url, options);
    } finally {
      if (--this.busy === 0) this.config.activity?.(undefined);
    }
  }

  private async sendWithRetries(method: string, url: URL, options: SendOptions): Promise<HttpResponse> {
    const { config } = this;
    // 429s are waited out within a time budget (--rate-limit-wait), apart from the retry count for faults.
    let rateLimitedMs = 0;
    let retries = 0;
    let replayed = false;
    for (let attempt = 0; ; attempt++) {
      const started = config.clock.now();
      const waiting = `waiting for ${url.host}: ${method} ${url.pathname}`;
      config.activity?.(this.answered ? waiting : `connecting to ${url.host}`);
      const outcome = await this.attempt(method, url, options, () => config.activity?.(waiting));
      if (outcome.kind === 'response') this.answered = true;
      const elapsed = config.clock.now() - started;
      if (config.debug)
        this.log(`${method} ${url.origin}${url.pathname}${url.search} -> ${describeOutcome(outcome)} in ${elapsed}ms`);

      if (outcome.kind === 'response' && outcome.response.status === 429) {
        const retryAfterMs = parseRetryAfter(outcome.response.headers['retry-after'], config.clock.now());
        const delay = retryAfterMs ?? backoffDelay(Math.min(attempt, 5), retryMaxDelayMs, config.random);
        const budget = config.rateLimitWaitMs();
        if (rateLimitedMs + delay <= budget) {
          if (rateLimitedMs === 0) config.onRateLimitWait?.(delay, config.clock.now() + budget);
          rateLimitedMs += delay;
          this.log(`rate-limited: waiting ${delay}ms (${rateLimitedMs}ms of ${budget}ms)`);
          config.activity?.(`rate-limited, retrying at ${clockTime(config.clock.now() + delay)}`);
          await this.sleep(delay);
          continue;
        }
        this.log(`giving up: 429 for ${rateLimitedMs}ms, the wait budget is ${budget}ms`);
        return this.finish(method, url, outcome, attempt + 1);
      }

      const decision = retryDecision(outcome, options.replaySafe, this.answered);
      if (decision.retry && retries < config.maxRetries) {
        retries++;
        if (outcome.kind !== 'response' && outcome.mayHaveReachedServer) replayed = true;
        const retryAfterMs =
          outcome.kind === 'response'
            ? parseRetryAfter(outcome.response.headers['retry-after'], config.clock.now())
            : undefined;
        if (retryAfterMs === undefined || retryAfterMs <= retryAfterCeilingMs) {
          const delay = retryAfterMs ?? backoffDelay(retries - 1, retryMaxDelayMs, config.random);
          this.log(`retry ${retries}/${config.maxRetries} in ${delay}ms: ${decision.reason}`);
          const what = outcome.kind === 'response' ? `HTTP ${outcome.response.status}` : describeOutcome(outcome);
          config.activity?.(`${what} from ${url.host}, retrying at ${clockTime(config.clock.now() + delay)}`);
          await this.sleep(delay);
          continue;
        }
        this.log(
          `not retrying: Retry-After of ${Math.round(retryAfterMs / 1000)}s is longer than ${retryAfterCeilingMs / 1000}s`,
        );
      } else if (decision.retry) {
        this.log(`giving up after ${attempt + 1} attempts: ${decision.reason}`);
      } else if (decision.reason) {
        this.log(`not retrying: ${decision.reason}`);
      }
      const response = this.finish(method, url, outcome, attempt + 1);
      return replayed ? { ...response, replayed } : response;
    }
  }

  private async attempt(
    method: string,
    url: URL,
    options: SendOptions,
    onConnected?: () => void,
  ): Promise<AttemptOutcome> {
    const { config } = this;
    if (config.signal.aborted) throw this.interruption();
    const headers: Record<string, string> = {
      ...(options.withoutKey ? {} : { 'x-api-key': config.apiKey }),
      accept: 'application/json',
      'user-agent': config.userAgent,
    };
    let body: RequestBody | undefined;
    if (options.form) {
      // Encoding multipart is what fetch's Response does well; it loads only for uploads.
      const encoded = new Response(options.form);
      headers['content-type'] = encoded.headers.get('content-type')!;
      body = Readable.fromWeb(encoded.body as Parameters<typeof Readable.fromWeb>[0]);
    } else if (options.jsonBody !== undefined) {
      body = typeof options.jsonBody === 'function' ? options.jsonBody() : options.jsonBody;
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
    }
    // The real service answers 406 to a GET that carries Content-Type: only say it when there is a body.
    if (body !== undefined && !options.form) headers['content-type'] = 'application/json';

    // One deadline for the whole request (connect, send, answer), not one per phase.
    const request = this.watches.watch(
      config.requestSignals?.() ?? [config.signal],
      options.timeoutMs ?? config.timeoutMs,
    );
    try {
      const saveTo = options.saveTo;
      // A new file each attempt, created exclusively (never through a link left at the name) and 0600.
      const sink = saveTo
        ? () => {
            rmSync(saveTo, { force: true });
            return createWriteStream(saveTo, { flags: 'wx', mode: 0o600 });
          }
        : undefined;
      this.inFlight++;
      const res = await this.transport
        .exchange(method, url, headers, body, request, options.maxBytes, sink, onConnected)
        .finally(() => this.inFlight--);
      const success = res.status >= 200 && res.status < 300;
      const parsed = readAnswer(res.bytes, res.headers['content-type'], success ? options.keepOnly : undefined);
      // A success whose JSON is cut off or garbled (a proxy, a dropped connection) says nothing about what happened:
      // treat it as a network fault after sending, so replay-safe requests are tried again.
      if (success && parsed === unreadableJson)
        return { kind: 'network', mayHaveReachedServer: true, code: 'BAD_BODY' };
      const answer = parsed === unreadableJson ? res.bytes.toString('utf8') : parsed;
      return { kind: 'response', response: { status: res.status, headers: res.headers, body: answer } };
    } catch (error) {
      if (config.signal.aborted) throw this.interruption();
      // A local file, not the network: exit 1 (a job can be resumed once it is fixed), and never retried.
      if (error instanceof LocalFileError) {
        // An errno says only what failed; a body that refused itself (an input edited mid-import) says why.
        const what = error.cause.code ? `a local file failed: ${error.cause.message}` : error.cause.message;
        throw new OutreachError(`${method} ${url.pathname}: ${what}`);
      }
      if (error instanceof AnswerTooLarge) throw answerTooLarge(method, url, error);
      const failure = error instanceof TransportError ? error : new TransportError('UNKNOWN', true);
      if (request.timedOut()) return { kind: 'timeout', mayHaveReachedServer: failure.sent, code: 'TIMEOUT' };
      return { kind: 'network', mayHaveReachedServer: failure.sent, code: failure.code };
    } finally {
      request.dispose();
    }
  }

  private finish(method: string, url: URL, outcome: AttemptOutcome, attempts: number): HttpResponse {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    if (outcome.kind === 'timeout') {
      throw new NetworkError(
        `${method} ${url.pathname} timed out${tries} (--timeout ${this.config.timeoutMs / 1000}s)`,
        'TIMEOUT',
        true,
      );
    }
    if (outcome.kind === 'network') {
      const { what, hint } = describeNetworkFailure(outcome.code, url, this.config);
      throw new NetworkError(
        `${method} ${url.pathname} failed${tries}: ${what}`,
        outcome.code,
        outcome.mayHaveReachedServer,
        hint,
      );
    }
    const { response } = outcome;
    if (response.status >= 200 && response.status < 300) return response;
    throw decodeErrorResponse(response, method, url.pathname);
  }

  private sleep(ms: number): Promise<void> {
    return this.config.clock.sleep(ms, this.config.signal).catch(() => {
      throw this.interruption();
    });
  }

  /** Ctrl-C, or a reader that closed stdout (which must stay silent): whatever aborted the command, the reason that
   * cut a request in flight (a second Ctrl-C, the grace period) first. */
  private interruption(): Interrupted {
    const cut: unknown = this.config.requestSignals?.().find((s) => s.aborted)?.reason;
    const reason: unknown = cut instanceof Interrupted ? cut : this.config.signal.reason;
    return reason instanceof Interrupted ? reason : new Interrupted();
  }

  private log(line: string): void {
    this.config.debug?.(line);
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** A name or value that form encoding leaves as it is (letters, digits, * - . _). */
const formPlain = /^[\w*.-]*$/;

/** The given query in form encoding, as URLSearchParams writes it: plain names and values (page=2, type=all) joined
 * as they are, without building a URLSearchParams for them (some 5 us a page of a list read by the ten thousand). */
function queryText(given: Array<[string, QueryValue]>): string {
  const pairs: string[] = [];
  for (const [name, value] of given)
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = String(item);
      if (!formPlain.test(name) || !formPlain.test(text)) return withParams(new URLSearchParams(), given).toString();
      pairs.push(`${name}=${text}`);
    }
  return pairs.join('&');
}

/** `params` with the given query's values set in it (each item of an array as one more value of its name). */
function withParams(params: URLSearchParams, given: Array<[string, QueryValue]>): URLSearchParams {
  for (const [name, value] of given) {
    if (Array.isArray(value)) for (const item of value) params.append(name, String(item));
    else params.set(name, String(value));
  }
  return params;
}

/** An answer past its limit: exit 1, never retried (the next attempt would be as large). */
function answerTooLarge(method: string, url: URL, error: AnswerTooLarge): NetworkError {
  if (error.saved)
    return new NetworkError(
      `${method} ${url.origin}${url.pathname}: the answer is larger than ${Math.round(error.limit / 2 ** 20)} MB`,
      'TOO_LARGE',
      true,
      'The service sent more than a report should hold; --debug shows the request.',
    );
  return new NetworkError(
    `${method} ${url.pathname}: the answer from ${url.host} is larger than ${describeLimit(error.limit)}; ` +
      'it was not read past that',
    'TOO_LARGE',
    true,
    'No answer of the API is that large: check the base URL (`outreach auth status`); --debug shows the request.',
  );
}

/** A network failure in words, and what to change: the base URL's setting, --connect-timeout, a CA certificate. */
function describeNetworkFailure(code: string, url: URL, config: HttpConfig): { what: string; hint?: string } {
  const where = url.origin;
  const source = config.baseUrlSource;
  const checkUrl = `Check the base URL${
    !source
      ? ''
      : source === 'the default'
        ? ' (the default: set --base-url or OUTREACH_BASE_URL)'
        : ` (set by ${source})`
  }`;
  if (/ALTNAME/.test(code))
    return {
      what: `the TLS certificate of ${url.host} is not valid for that name (${code})`,
      hint: `${checkUrl}: is the host name right? A proxy that intercepts TLS shows its own certificate.`,
    };
  if (code === 'CERT_HAS_EXPIRED')
    return { what: `the TLS certificate of ${url.host} has expired (${code})`, hint: `${checkUrl}.` };
  if (/^ERR_SSL_|^EPROTO$/.test(code))
    return {
      what: `${url.host} did not answer in TLS (${code})`,
      hint: `${checkUrl}: a service without TLS is reached with http://, and only on this machine.`,
    };
  if (isTlsFailure(code))
    return {
      what: `the TLS certificate of ${url.host} is not trusted (${code})`,
      hint: "If your company's proxy or a private CA signs it, set NODE_EXTRA_CA_CERTS to that CA's certificate file.",
    };
  switch (code) {
    case 'ECONNREFUSED':
      return { what: `connection refused (${where})`, hint: `Nothing is listening there. ${checkUrl}.` };
    case 'ENOTFOUND':
      return { what: `host ${url.hostname} not found (${where})`, hint: `${checkUrl}: is the host name right?` };
    case 'EAI_AGAIN':
      return { what: `host ${url.hostname} could not be looked up (${where})`, hint: 'Check your network and DNS.' };
    case 'CONNECT_TIMEOUT':
      return {
        what: `${url.host} did not answer within ${config.connectTimeoutMs / 1000}s (--connect-timeout)`,
        hint: `${checkUrl} and your network; raise --connect-timeout if the service is only slow to connect.`,
      };
    case 'ECONNRESET':
    case 'EPIPE':
      return { what: `connection closed by the server (${where})` };
    case 'BAD_BODY':
      return { what: `the answer was cut off or is not valid JSON (${where})` };
    default:
      return { what: `${code.toLowerCase()} (${where})` };
  }
}

function describeOutcome(outcome: AttemptOutcome): string {
  if (outcome.kind === 'response') return String(outcome.response.status);
  if (outcome.kind === 'timeout') return 'timeout';
  return `network error ${outcome.code}`;
}

const unreadableJson = Symbol('unreadable JSON');

/** An answer's bytes as parseBody reads their text; with `keep`, JSON is read keeping only its members, and what is
 * not JSON goes to parseBody as before. */
function readAnswer(bytes: Buffer, contentType: string | string[] | undefined, keep?: KeptMembers): unknown {
  const kept = keep ? parseJsonKeeping(bytes, keep) : notJson;
  return kept !== notJson ? kept : parseBody(bytes.toString('utf8'), contentType);
}

/** JSON when the answer says or looks so; `unreadableJson` when it does and does not parse; else the text. */
function parseBody(text: string, contentType: string | string[] | undefined): unknown {
  const type = String(contentType ?? '');
  if (text.length === 0) return undefined;
  if (type.includes('json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return unreadableJson;
    }
  }
  return text;
}
