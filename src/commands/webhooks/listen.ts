import { clockTime } from '../../format.js';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineVerb } from '../../cli/verb.js';
import { flag } from '../../cli/flags.js';
import { writeOut } from '../../cli/render/output.js';
import { cellText, tsvLine, type Cell } from '../../cli/render/columns.js';
import { visible } from '../../cli/terminal-text.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { CommandContext } from '../../cli/command-context.js';
import { createWebhook } from '../../api/resources/webhooks.js';
import { isLoopbackHost } from '../../config/target.js';
import { UsageError } from '../../errors.js';
import { eventKinds, eventsHelp, headersFrom, readHeader } from './events.js';
import { checkWebhookUrl } from './create.js';

/** The largest delivery kept; anything longer is answered 413. */
const maxDeliveryBytes = 1024 * 1024;
/** A sender that stops half-way through a body does not hold the receiver. */
const readTimeoutMs = 10_000;
/** How many eventIds are remembered to tell a replayed delivery (the oldest are forgotten first). */
const seenEventIds = 10_000;
/** Headers about one connection, not the delivery (RFC 9110 7.6.1), and those fetch sets itself: never forwarded.
 * Sent on, a chunked or keep-alive delivery failed to forward after its sender had been told 200. */
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

interface Delivery {
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

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => req.destroy(new Error('the sender stopped sending')), readTimeoutMs);
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxDeliveryBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(timer);
      if (size > maxDeliveryBytes) reject(new Error(`a delivery of ${size} bytes, over 1 MB`));
      else resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

async function forward(url: string, delivery: Delivery, raw: Buffer, timeoutMs: number, signal: AbortSignal) {
  // The body goes on whole (fetch sets its length); the headers the Connection header names are hop-by-hop too.
  const named = String(delivery.headers.connection ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery.headers))
    if (typeof value === 'string' && !hopByHop.has(name) && !name.startsWith('proxy-') && !named.includes(name))
      headers[name] = value;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: new Uint8Array(raw),
      // A redirect is the handler's answer: following it would send the delivery (and its headers) elsewhere.
      redirect: 'manual',
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
    });
    await res.arrayBuffer();
    return { status: res.status };
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: { code?: string; message?: string } };
    if (name === 'TimeoutError') return { error: `no answer within ${timeoutMs / 1000}s` };
    return { error: cause?.code ?? cause?.message ?? message };
  }
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
  return JSON.stringify([String(id ?? '').trim(), String(eventId).trim()]);
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

/** The headers a receiver checks hold its secrets: their values are shown as *** unless asked for. */
function masked(headers: Delivery['headers'], checks: string[][]): Delivery['headers'] {
  const secret = new Set(checks.map(([name]) => name));
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, secret.has(name) ? '***' : value]));
}

/** One line a delivery. Its event and webhook name are the sender's text (even for a delivery refused with 401): on a
 * terminal their control characters are shown, tab and newline too, so a line never breaks or gains a column;
 * piped, they are data as sent, but with tabs and newlines as spaces (TSV). */
function summary(d: Delivery, terminal: boolean): string {
  const time = clockTime(Date.parse(d.receivedAt));
  const body = (typeof d.body === 'object' && d.body) as Record<string, unknown> | false;
  const webhook = body && typeof body.webhook === 'object' ? (body.webhook as { name?: string; id?: string }) : {};
  const parts: Cell[] = [time, d.event ?? '(no event field)', String(webhook.name ?? webhook.id ?? '')];
  if (d.rejected) parts.push(`refused 401: ${d.rejected}`);
  else if (d.replay) parts.push('replay (eventId seen before): not forwarded');
  else if (d.ignored) parts.push('ignored (not in --event)');
  else parts.push('200');
  if (d.forwarded)
    parts.push(d.forwarded.error ? `forward failed: ${d.forwarded.error}` : `forwarded: ${d.forwarded.status}`);
  return `${terminal ? parts.map((part) => visible(cellText(part))).join('\t') : tsvLine(parts)}\n`;
}

async function listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new UsageError(
              `port ${port} on ${host} is in use`,
              'Choose another with --port (--port 0 picks a free one).',
            )
          : error.code === 'EACCES'
            ? new UsageError(`port ${port} needs privileges`, 'Choose a port above 1023 with --port.')
            : error.code === 'EADDRNOTAVAIL'
              ? new UsageError(`${host} is not an address of this machine`, 'Give one of its addresses with --host.')
              : error,
      ),
    );
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
}

export default defineVerb({
  exitCodes: [ExitCode.partial],
  description: [
    'A local receiver: prints each delivery as it arrives (one line: time, event, webhook, answer; --json or',
    '--ndjson: the whole delivery with its headers, one JSON object a line) and answers 200. --expect-header makes it',
    'refuse (401) a delivery without that header and value. --forward-to passes each delivery on to a URL (your',
    'handler) and prints its answer; a handler that hangs is given up after --forward-timeout. A delivery with an',
    'eventId seen before (of the last 10,000) is answered 200 and shown as a replay, not forwarded again. Listening',
    'on an address other than loopback without --expect-header is warned about: anyone could send deliveries.',
    '',
    '--create registers a webhook that points here: at --public-url (a tunnel you run, such as ngrok), or at this',
    'receiver itself when the API is on this machine (the sandbox). It gets a random secret header, checked on every',
    'delivery. The API cannot update or delete webhooks: when you stop, pause or delete it in the web app.',
    'Ctrl-C stops, with the count of deliveries received (exit 0).',
    '',
    eventsHelp,
  ].join('\n'),
  examples: [
    "--sandbox webhooks listen --create --name dev --event 'task-*'",
    'webhooks listen --port 8787 --forward-to http://localhost:3000/hooks --expect-header "X-Secret: s3cr3t"',
    "webhooks listen --port 8787 --create --name dev --event 'task-*' --public-url https://abc.ngrok.app/",
  ],
  flags: {
    port: flag.int('port to listen on; 0 picks a free one', { min: 0, max: 65535, default: 7358 }),
    host: flag.text('address to listen on', { value: 'address', default: '127.0.0.1' }),
    event: flag.list('only these kinds are printed and forwarded (others are answered and counted)', {
      value: 'kind',
      each: eventKinds,
    }),
    expectHeader: flag.list('refuse deliveries without this "Name: value" header', {
      value: 'header',
      each: readHeader,
    }),
    forwardTo: flag.custom('pass each delivery on to this URL', checkWebhookUrl, { value: 'url' }),
    forwardTimeout: flag.seconds('how long --forward-to may take to answer', { default: 10 }),
    showSecrets: flag.bool('print the values of checked headers under --json (masked otherwise)'),
    create: flag.bool('register a webhook that delivers here (needs --name and --event)'),
    name: flag.text('name of the webhook --create registers', { nonEmpty: true }),
    publicUrl: flag.custom('the address the service reaches this receiver at (a tunnel)', checkWebhookUrl, {
      value: 'url',
    }),
  },
  // eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
  async run(ctx, opts) {
    if (opts.create && (!opts.name || !opts.event.length))
      throw new UsageError('--create needs --name and --event: what to call the webhook and what it receives');
    if (!opts.create && (opts.name || opts.publicUrl))
      throw new UsageError(`${opts.name ? '--name' : '--public-url'} is for --create`);
    const kinds = new Set(opts.event.flat());
    let expected: Record<string, string>;
    try {
      expected = headersFrom(opts.expectHeader);
    } catch (error) {
      throw new UsageError(`--expect-header ${(error as Error).message}`);
    }
    // A secret with no value is no secret: any sender that adds the empty header would pass.
    const empty = Object.entries(expected).find(([, value]) => !value.trim());
    if (empty) throw new UsageError(`--expect-header "${empty[0]}": give the value the sender must send`);
    const secret: Record<string, string> = opts.create
      ? { 'X-Outreach-Listen-Secret': randomBytes(16).toString('hex') }
      : {};
    const checks = Object.entries({ ...expected, ...secret }).map(([name, value]) => [name.toLowerCase(), value]);
    const counts = { received: 0, refused: 0, ignored: 0, replayed: 0 };
    const seen = new SeenEvents(seenEventIds);
    if (!isLoopbackHost(opts.host) && !checks.length)
      ctx.warn(
        `listening on ${opts.host} without --expect-header: anyone who can reach it can send deliveries that are ` +
          `printed${opts.forwardTo ? ' and forwarded' : ''}`,
      );
    const machine = ctx.output.format === 'json' || ctx.output.format === 'ndjson';

    const server = createServer(async (req, res) => {
      let raw: Buffer;
      try {
        raw = await readBody(req);
      } catch (error) {
        res.writeHead(413).end();
        ctx.warn(`a delivery could not be read: ${(error as Error).message}`);
        return;
      }
      const text = raw.toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* not JSON: shown as text */
      }
      const event = typeof body === 'object' && body && 'event' in body ? String(body.event) : undefined;
      const delivery: Delivery = {
        receivedAt: new Date(ctx.clock.now()).toISOString(),
        method: req.method ?? 'POST',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        ...(event !== undefined && { event }),
      };
      counts.received++;
      const wrong = checks.find(([name, value]) => !holds(req.headers[name!], value!));
      // Only a delivery let in is remembered: one refused cannot make a real one look like a replay. One event sent to
      // two webhooks that both point here is no replay: the webhook's id is part of what is remembered.
      const eventId = replayKey(body);
      if (wrong) delivery.rejected = `header ${wrong[0]} ${req.headers[wrong[0]!] === undefined ? 'missing' : 'wrong'}`;
      else if (eventId && seen.replayed(eventId)) delivery.replay = true;
      else if (kinds.size && event !== 'test' && !kinds.has(event ?? '')) delivery.ignored = true;
      if (delivery.rejected) counts.refused++;
      if (delivery.replay) counts.replayed++;
      if (delivery.ignored) counts.ignored++;
      res.writeHead(delivery.rejected ? 401 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: !delivery.rejected }));
      if (opts.forwardTo && !delivery.rejected && !delivery.ignored && !delivery.replay)
        delivery.forwarded = await forward(opts.forwardTo, delivery, raw, opts.forwardTimeout, ctx.signal);
      const shown = opts.showSecrets ? delivery : { ...delivery, headers: masked(delivery.headers, checks) };
      await writeOut(ctx.stdout, machine ? `${JSON.stringify(shown)}\n` : summary(delivery, ctx.stdoutIsTTY));
    });
    // Against a service elsewhere, --create needs a public address: said before anything is bound.
    const http = opts.create ? await ctx.http() : undefined;
    if (http && !opts.publicUrl && !isLoopbackHost(new URL(http.origin).hostname))
      throw new UsageError(
        '--create needs --public-url: the service cannot reach this machine',
        `Run a tunnel to this receiver (such as \`ngrok http ${opts.port || '<port>'}\`) and give its https address.`,
      );
    const localUrl = await listen(server, opts.port, opts.host);
    ctx.note(`Listening on ${localUrl} (Ctrl-C to stop)`);
    let paused = false;
    try {
      if (opts.create)
        paused = await register(ctx, opts.name!, opts.publicUrl ?? localUrl, [...kinds], { ...expected, ...secret });
      if (!paused && !ctx.signal.aborted)
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    } finally {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    }
    ctx.note(
      `Stopped: ${counts.received} deliver${counts.received === 1 ? 'y' : 'ies'} received` +
        `${counts.refused ? `, ${counts.refused} refused` : ''}${counts.ignored ? `, ${counts.ignored} ignored` : ''}` +
        `${counts.replayed ? `, ${counts.replayed} replayed` : ''}.`,
    );
    return paused ? ExitCode.partial : ExitCode.ok;
  },
});

/** Registers a webhook pointing here and says where it points and what is left to do when done; true when its test
 * delivery failed and it starts paused (then there is nothing to listen for). */
async function register(
  ctx: CommandContext,
  name: string,
  url: string,
  kinds: string[],
  headers: Record<string, string>,
): Promise<boolean> {
  const webhook = await createWebhook(await ctx.http(), { name, webhookUrl: url, webhookEvent: kinds, headers });
  const paused = webhook.status === 'paused' || webhook.testDelivery?.status === 'failed';
  ctx.note(
    `Created webhook ${webhook.id} (${name}) -> ${url}: ${kinds.join(', ')}; test delivery ` +
      `${webhook.testDelivery?.status ?? 'unknown'}.`,
  );
  if (paused)
    ctx.outcome(
      `The test delivery to ${url} did not reach this receiver, so webhook ${webhook.id} starts paused and will send ` +
        'nothing: check that --public-url leads here, then re-enable the webhook in the web app.',
      true,
    );
  ctx.onDispose(() =>
    ctx.note(
      `Webhook ${webhook.id} still points at ${url}: pause or delete it in the web app ` +
        '(the API cannot update or delete webhooks).',
    ),
  );
  return paused;
}
