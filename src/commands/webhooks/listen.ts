import { clockTime } from '../../format.js';
import { randomBytes } from 'node:crypto';
import { defineVerb } from '../../cli/verb.js';
import { flag } from '../../cli/flags.js';
import { streamResult, type StreamItem } from '../../cli/result.js';
import { cellText, tsvLine, type Cell } from '../../cli/render/columns.js';
import { visible } from '../../cli/terminal-text.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { CommandContext } from '../../cli/command-context.js';
import { createWebhook } from '../../api/resources/webhooks.js';
import { isLoopbackHost } from '../../config/target.js';
import { UsageError } from '../../errors.js';
import { listening } from '../../cli/listen-problem.js';
import { textOf, WebhookReceiver, type Delivery } from '../../jobs/webhook-receiver.js';
import { eventKinds, eventsHelp, headersFrom, readHeader } from './events.js';
import { checkWebhookUrl } from './create.js';

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
  const parts: Cell[] = [time, d.event ?? '(no event field)', textOf(webhook.name ?? webhook.id ?? '')];
  if (d.rejected) parts.push(`refused 401: ${d.rejected}`);
  else if (d.replay) parts.push('replay (eventId seen before): not forwarded');
  else if (d.ignored) parts.push('ignored (not in --event)');
  else parts.push('200');
  if (d.forwarded)
    parts.push(d.forwarded.error ? `forward failed: ${d.forwarded.error}` : `forwarded: ${d.forwarded.status}`);
  return `${terminal ? parts.map((part) => visible(cellText(part))).join('\t') : tsvLine(parts)}\n`;
}

export default defineVerb({
  agent: { kind: 'leftOut', why: 'a receiver that runs until stopped, for a terminal' },
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
  async run(ctx, opts) {
    if (opts.create && (!opts.name || !opts.event.length))
      throw new UsageError('--create needs --name and --event: what to call the webhook and what it receives');
    if (!opts.create && (opts.name || opts.publicUrl))
      throw new UsageError(`${opts.name ? '--name' : '--public-url'} is for --create`);
    const kinds = new Set(opts.event.flat());
    const expected = expectedHeaders(opts.expectHeader);
    const secret: Record<string, string> = opts.create
      ? { 'X-Outreach-Listen-Secret': randomBytes(16).toString('hex') }
      : {};
    const checks = Object.entries({ ...expected, ...secret }).map(([name, value]): [string, string] => [
      name.toLowerCase(),
      value,
    ]);
    if (!isLoopbackHost(opts.host) && !checks.length)
      ctx.warn(
        `listening on ${opts.host} without --expect-header: anyone who can reach it can send deliveries that are ` +
          `printed${opts.forwardTo ? ' and forwarded' : ''}`,
      );
    // Against a service elsewhere, --create needs a public address: said before anything is bound.
    const http = opts.create ? await ctx.http() : undefined;
    if (http && !opts.publicUrl && !isLoopbackHost(new URL(http.origin).hostname))
      throw new UsageError(
        '--create needs --public-url: the service cannot reach this machine',
        `Run a tunnel to this receiver (such as \`ngrok http ${opts.port || '<port>'}\`) and give its https address.`,
      );
    const receiver = new WebhookReceiver({
      kinds,
      checks,
      forwardTo: opts.forwardTo,
      forwardTimeoutMs: opts.forwardTimeout,
      clock: ctx.clock,
      signal: ctx.signal,
      problem: (message) => ctx.warn(message),
    });
    const localUrl = await listening(() => receiver.listen(opts.port, opts.host));
    ctx.note(`Listening on ${localUrl} (Ctrl-C to stop)`);
    // Listens until Ctrl-C, or at once when the webhook it registered starts paused (nothing will come).
    const listened = (async () => {
      try {
        const paused =
          opts.create &&
          (await register(ctx, opts.name!, opts.publicUrl ?? localUrl, [...kinds], { ...expected, ...secret }));
        if (!paused && !ctx.signal.aborted)
          await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return paused;
      } finally {
        await receiver.close();
      }
    })();
    listened.catch(() => undefined); // its failure is thrown once the deliveries end, not reported unhandled before
    let paused = false;
    async function* deliveries(): AsyncGenerator<StreamItem> {
      for await (const delivery of receiver.deliveries()) yield shown(delivery, ctx.stdoutIsTTY, shownChecks);
      paused = await listened;
    }
    const shownChecks = opts.showSecrets ? undefined : checks;
    return streamResult(deliveries(), () => ({
      note: stoppedLine(receiver.counts),
      exitCode: paused ? ExitCode.partial : ExitCode.ok,
      ...(paused && {
        failing: 'the webhook registered with --create starts paused (its test delivery failed): nothing will come',
        hint: 'Give --public-url an address the service can reach, then listen again.',
      }),
    }));
  },
});

function stoppedLine({ received, refused, ignored, replayed }: WebhookReceiver['counts']): string {
  return (
    `Stopped: ${received} deliver${received === 1 ? 'y' : 'ies'} received` +
    `${refused ? `, ${refused} refused` : ''}${ignored ? `, ${ignored} ignored` : ''}` +
    `${replayed ? `, ${replayed} replayed` : ''}.`
  );
}

/** --expect-header's pairs; a secret with no value is no secret: any sender that adds the empty header would pass. */
function expectedHeaders(given: Array<[string, string]>): Record<string, string> {
  let expected: Record<string, string>;
  try {
    expected = headersFrom(given);
  } catch (error) {
    throw new UsageError(`--expect-header ${(error as Error).message}`);
  }
  const empty = Object.entries(expected).find(([, value]) => !value.trim());
  if (empty) throw new UsageError(`--expect-header "${empty[0]}": give the value the sender must send`);
  return expected;
}

/** A delivery as it is shown: one line, or (--json, --ndjson) the whole delivery, checked headers masked unless
 * `checks` is undefined (--show-secrets). */
function shown(delivery: Delivery, terminal: boolean, checks: string[][] | undefined): StreamItem {
  const value = checks ? { ...delivery, headers: masked(delivery.headers, checks) } : delivery;
  return { value, text: summary(delivery, terminal) };
}

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
