// A local receiver of webhook deliveries: it answers each at once (200, or 401 without the headers it checks), tells
// replays (an eventId seen before, of the last 10,000) and kinds not asked for, forwards the rest to a handler
// through the transport of the one HTTP client (never with the API key; a redirect is the handler's answer, not
// followed), and hands every delivery over, in the order they are done, to whoever iterates `deliveries()`.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { cancelledBy, Transport, TransportError } from '../api/transport.js';
import type { Clock } from '../context.js';
import { BodyTooLarge, listenOn, readCappedBody } from '../net/local-server.js';

/** The largest delivery kept; anything longer is answered 413. */
const maxDeliveryBytes = 1024 * 1024;
/** A sender that stops half-way through a body does not hold the receiver. */
const readTimeoutMs = 10_000;
/** How many eventIds are remembered to tell a replayed delivery (the oldest are forgotten first). */
const seenEventIds = 10_000;
/** Headers about one connection, not the delivery (RFC 9110 7.6.1), and those the transport sets itself: never
 * forwarded. Sent on, a chunked or keep-alive delivery failed to forward after its sender had been told 200. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'expect',
  'host',
  'content-length',
]);

export interface Delivery {
  receivedAt: string;
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  event?: string;
  /** Why it was refused (401 for a wrong header), if it was. */
  rejected?: string;
  ignored?: boolean;
  /** Its eventId came before: answered 200 again, not forwarded twice. */
  replay?: boolean;
  forwarded?: { status?: number; error?: string };
}

export interface ReceiverOptions {
  /** Only these kinds are forwarded (and shown as such); none: every kind. */
  kinds: Set<string>;
  /** [lower-case header name, value] pairs every delivery must carry. */
  checks: Array<[string, string]>;
  forwardTo?: string;
  forwardTimeoutMs: number;
  clock: Clock;
  /** Ends forwards under way (Ctrl-C). */
  signal: AbortSignal;
  /** A delivery that could not be read (too large, cut off: answered 413) or handled (answered 500), said in words;
   * it is not handed over. */
  problem(message: string): void;
}

export class WebhookReceiver {
  readonly counts = { received: 0, refused: 0, ignored: 0, replayed: 0 };
  private readonly seen = new SeenEvents(seenEventIds);
  private readonly server: Server;
  private readonly transport = new Transport(10_000);
  private readonly done: Delivery[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  /** Deliveries being read, answered and forwarded: close() lets them finish, so each is handed over. */
  private readonly receiving = new Set<Promise<void>>();

  constructor(private readonly options: ReceiverOptions) {
    this.server = createServer((req, res) => {
      // A delivery that breaks the receiver (none should) is answered 500 and said; the receiver goes on.
      const receiving = this.receive(req, res)
        .catch((error: unknown) => {
          if (!res.headersSent) res.writeHead(500).end();
          this.options.problem(`a delivery could not be handled: ${(error as Error)?.message ?? String(error)}`);
        })
        .finally(() => this.receiving.delete(receiving));
      this.receiving.add(receiving);
    });
  }

  /** Starts listening; the receiver's own URL. */
  async listen(port: number, host: string): Promise<string> {
    return `${await listenOn(this.server, port, host)}/`;
  }

  /** Every delivery once it is answered (and forwarded), until close(). */
  async *deliveries(): AsyncGenerator<Delivery> {
    for (;;) {
      const next = this.done.shift();
      if (next) yield next;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Stops listening; deliveries already handed over are still iterated. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    await Promise.all(this.receiving);
    this.transport.close();
    this.closed = true;
    this.wake?.();
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw: Buffer;
    try {
      raw = await readCappedBody(req, maxDeliveryBytes, readTimeoutMs);
    } catch (error) {
      res.writeHead(413).end();
      const why =
        error instanceof BodyTooLarge ? `a delivery of ${error.size} bytes, over 1 MB` : (error as Error).message;
      this.options.problem(`a delivery could not be read: ${why}`);
      return;
    }
    const delivery = this.judge(req, parseBody(raw));
    res.writeHead(delivery.rejected ? 401 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ received: !delivery.rejected }));
    const { forwardTo } = this.options;
    if (forwardTo && !delivery.rejected && !delivery.ignored && !delivery.replay)
      delivery.forwarded = await this.forward(forwardTo, delivery, raw);
    this.done.push(delivery);
    this.wake?.();
  }

  /** Refused, a replay, not a kind asked for, or let in; counted. */
  private judge(req: IncomingMessage, body: unknown): Delivery {
    const event = typeof body === 'object' && body && 'event' in body ? textOf(body.event) : undefined;
    const delivery: Delivery = {
      receivedAt: new Date(this.options.clock.now()).toISOString(),
      method: req.method ?? 'POST',
      path: req.url ?? '/',
      headers: req.headers,
      body,
      ...(event !== undefined && { event }),
    };
    const { counts } = this;
    counts.received++;
    const wrong = this.options.checks.find(([name, value]) => !holds(req.headers[name], value));
    // Only a delivery let in is remembered: one refused cannot make a real one look like a replay. One event sent to
    // two webhooks that both point here is no replay: the webhook's id is part of what is remembered.
    const eventId = replayKey(body);
    const { kinds } = this.options;
    if (wrong) delivery.rejected = `header ${wrong[0]} ${req.headers[wrong[0]] === undefined ? 'missing' : 'wrong'}`;
    else if (eventId && this.seen.replayed(eventId)) delivery.replay = true;
    else if (kinds.size && event !== 'test' && !kinds.has(event ?? '')) delivery.ignored = true;
    if (delivery.rejected) counts.refused++;
    if (delivery.replay) counts.replayed++;
    if (delivery.ignored) counts.ignored++;
    return delivery;
  }

  private async forward(url: string, delivery: Delivery, raw: Buffer): Promise<Delivery['forwarded']> {
    const { forwardTimeoutMs: timeoutMs, signal } = this.options;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const answer = await this.transport.exchange(
        'POST',
        new URL(url),
        forwardedHeaders(delivery.headers),
        raw,
        cancelledBy(AbortSignal.any([signal, deadline])),
        // Only the status is shown: a handler's successful answer is read to its end and dropped, whatever its size.
        Infinity,
        () => new Writable({ write: (_chunk, _encoding, done) => done() }),
      );
      return { status: answer.status };
    } catch (error) {
      if (deadline.aborted) return { error: `no answer within ${timeoutMs / 1000}s` };
      return {
        error: error instanceof TransportError && error.code !== 'UNKNOWN' ? error.code : (error as Error).message,
      };
    }
  }
}

/** A sender's value as text, whatever it is: JSON's own text for an object, never an exception. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  } catch {
    return '(unreadable)';
  }
}

function parseBody(raw: Buffer): unknown {
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text; // not JSON: shown as text
  }
}

/** The delivery's headers less the hop-by-hop ones, those the Connection header names included. */
function forwardedHeaders(headers: Delivery['headers']): Record<string, string> {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (typeof value === 'string' && !hopByHop.has(name) && !name.startsWith('proxy-') && !named.includes(name))
      kept[name] = value;
  return kept;
}

/** Whether a header holds the expected value, compared in constant time (as digests: lengths tell nothing either). */
function holds(value: string | string[] | undefined, expected: string): boolean {
  if (typeof value !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(value), digest(expected));
}

/** What tells a delivery again: its webhook's id and its eventId (none without an eventId). */
function replayKey(body: unknown): string | undefined {
  if (typeof body !== 'object' || !body) return undefined;
  const { eventId, webhook } = body as { eventId?: unknown; webhook?: { id?: unknown } };
  if (typeof eventId !== 'string' && typeof eventId !== 'number') return undefined;
  const id = typeof webhook === 'object' && webhook ? webhook.id : undefined;
  // Trimmed: a resend with a space added to an id is the same event. (Without a signature on deliveries, a sender
  // that changes the ids is not told apart from a new event: this stops resends, not forgeries.)
  return JSON.stringify([textOf(id ?? '').trim(), String(eventId).trim()]);
}

/** The eventIds of deliveries let in, the last `limit` of them. */
class SeenEvents {
  private readonly ids = new Set<string>();
  constructor(private readonly limit: number) {}

  /** True when `id` came before; remembers it otherwise. */
  replayed(id: string): boolean {
    if (this.ids.has(id)) return true;
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
    return false;
  }
}
