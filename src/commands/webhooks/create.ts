import { conflicts, defineVerb } from '../../cli/verb.js';
import { flag, renamed, ValueProblem } from '../../cli/flags.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { recordResult } from '../../cli/result.js';
import type { CommandContext } from '../../cli/command-context.js';
import { maxActiveWebhooks, webhookCreateBody } from '../../api/contract/webhooks.js';
import { describeIssue } from '../../api/contract/schema.js';
import { createWebhook, listWebhooksPage, type WebhookInput } from '../../api/resources/webhooks.js';
import { webhooksEndpoints } from '../../api/contract/webhooks.js';
import { call } from '../../api/call.js';
import { paginate } from '../../api/paginate.js';
import { isLoopbackHost } from '../../config/target.js';
import { InputFileError, NetworkError, OutreachError, UsageError } from '../../errors.js';
import { readJsonOrYaml } from '../../io/structured-file.js';
import { webhookFields, webhookJson } from './columns.js';
import { eventKinds, eventsHelp, headersFrom, readHeader } from './events.js';

/** https anywhere; plain http only to this machine, where nothing crosses a network. */
export function checkWebhookUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValueProblem(`must be a URL such as https://crm.example/hooks, not "${raw}"`);
  }
  if (url.username || url.password)
    throw new ValueProblem('must not hold a user name or password: send a secret with --header instead');
  if (url.protocol === 'https:') return url.toString();
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url.toString();
  if (url.protocol === 'http:')
    throw new ValueProblem(`must use https (plain http only to localhost / 127.0.0.1), not "${raw}"`);
  throw new ValueProblem(`must be an http(s) URL, not "${raw}"`);
}

/** Counts active webhooks only when there could be 50: listing shows ids, so each is looked at. */
async function activeCount(ctx: CommandContext): Promise<number> {
  const http = await ctx.http();
  const first = await listWebhooksPage(http, 1, 100);
  if ((first.totalItems ?? first.items.length) < maxActiveWebhooks) return 0;
  let active = 0;
  for await (const { id } of paginate((page, size) => listWebhooksPage(http, page, size), { pageSize: 100 }))
    if ((await call(http, webhooksEndpoints.get, { params: { webhookId: id } })).payload.status !== 'paused') active++;
  return active;
}

async function fromFile(ctx: CommandContext, file: string): Promise<WebhookInput> {
  const body = (await readJsonOrYaml(file, ctx, file)) as Record<string, unknown>;
  const withHeaders = { headers: {}, ...fileEvents(file, body) };
  const checked = webhookCreateBody.safeParse(withHeaders);
  if (!checked.success) throw new InputFileError(file, `is not a webhook: ${describeIssue(checked.error, 'body')}`);
  try {
    checkWebhookUrl(checked.data.webhookUrl);
  } catch (error) {
    throw new InputFileError(file, `webhookUrl ${(error as Error).message}`);
  }
  return checked.data;
}

/** The file's event kinds read as --event reads them: groups expanded, unknown kinds named with a suggestion. */
function fileEvents(file: string, body: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(body.webhookEvent)) return body;
  try {
    return { ...body, webhookEvent: [...new Set(body.webhookEvent.flatMap((kind) => eventKinds(String(kind))))] };
  } catch (error) {
    throw new InputFileError(file, `webhookEvent: ${(error as Error).message}`);
  }
}

export default defineVerb({
  // A webhook cannot be deleted through the API, and it sends the account's events to any address.
  agent: { kind: 'destructive', idempotent: false },
  exitCodes: [ExitCode.partial],
  description: [
    'The service sends a test delivery at once. When it fails, the webhook starts paused: the command says so and',
    'exits 3. Make the URL answer 2xx to a POST, then re-enable the webhook in the web app (that sends a new test);',
    'the API cannot update or delete webhooks. --header adds a header to every delivery (a shared secret your',
    'receiver checks). Creating is never sent twice: if its answer is lost, check `webhooks list` before retrying.',
    '',
    eventsHelp,
  ].join('\n'),
  examples: [
    "webhooks create --name crm --url https://crm.example/hooks --event 'task-*' --header 'X-Secret: s3cr3t'",
    'webhooks create --name replies --url https://crm.example/replies --event reply-received --event email-bounced',
    'webhooks create --file webhook.json',
  ],
  flags: {
    name: flag.text('a name to tell it by', { nonEmpty: true }),
    url: flag.custom('where deliveries go: https (http only to localhost)', checkWebhookUrl, { value: 'url' }),
    event: flag.list('an event kind, or a group such as task-*', { value: 'kind', each: eventKinds }),
    header: flag.list('a header sent with each delivery, "Name: value"', { value: 'header', each: readHeader }),
    file: renamed(
      flag.text('the whole webhook as JSON or YAML: {name, webhookUrl, webhookEvent, headers}', { value: 'file' }),
      'fromFile',
    ),
  },
  rules: [conflicts('file', 'name'), conflicts('file', 'url'), conflicts('file', 'event'), conflicts('file', 'header')],
  async run(ctx, opts) {
    let input: WebhookInput;
    if (opts.file) input = await fromFile(ctx, opts.file);
    else {
      const missing = [!opts.name && '--name', !opts.url && '--url', !opts.event.length && '--event'].filter(Boolean);
      if (missing.length)
        throw new UsageError(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} required (or --file)`);
      let headers: Record<string, string>;
      try {
        headers = headersFrom(opts.header);
      } catch (error) {
        throw new UsageError(`--header ${(error as Error).message}`);
      }
      input = { name: opts.name!, webhookUrl: opts.url!, webhookEvent: [...new Set(opts.event.flat())], headers };
    }
    if ((await activeCount(ctx)) >= maxActiveWebhooks)
      ctx.warn(
        `the account already has ${maxActiveWebhooks} active webhooks, the most it may have: the service may refuse this one`,
      );
    let webhook;
    try {
      webhook = await createWebhook(await ctx.http(), input);
    } catch (error) {
      if (error instanceof NetworkError && error.sent)
        throw new OutreachError(
          `the answer to creating webhook "${input.name}" was lost: it may have been created`,
          'Look with `outreach webhooks list` before creating it again (creating is never retried by itself).',
        );
      throw error;
    }
    const failed = webhook.status === 'paused' || webhook.testDelivery?.status === 'failed';
    return recordResult(
      webhook,
      [...webhookFields(false), { header: 'TEST DELIVERY', value: (w) => w.testDelivery?.status ?? '' }],
      webhookJson(webhook, false),
      failed ? ExitCode.partial : ExitCode.ok,
      failed
        ? {
            failing: `the test delivery to ${input.webhookUrl} failed, so webhook ${webhook.id} starts paused and gets no events`,
            hint: 'Make the URL answer 2xx to a POST, then re-enable the webhook in the web app (re-enabling sends a new test).',
          }
        : {},
    );
  },
});
