import { defineVerb } from '../../cli/verb.js';
import { arg, flag } from '../../cli/flags.js';
import { ExitCode, exitCodeForItems } from '../../cli/exit-codes.js';
import { valueResult } from '../../cli/result.js';
import { webhookEvents } from '../../api/contract/webhooks.js';
import { triggerSampleEvent } from '../../api/resources/webhooks.js';
import { isLoopbackHost } from '../../config/target.js';
import { UsageError } from '../../errors.js';

export default defineVerb({
  agent: { kind: 'write', idempotent: false },
  exitCodes: [ExitCode.partial],
  args: [
    arg.text('kind', {
      choices: webhookEvents,
      normalise: (raw) => webhookEvents.find((k) => k === raw.toLowerCase()),
    }),
  ],
  description: [
    'Sandbox only: the sandbox delivers a sample event of KIND now, to --webhook or to every active webhook',
    'subscribed to it, and prints each delivery (webhook id, HTTP status, outcome). The service itself has no such',
    'endpoint: against it this says so (exit 2). Sample bodies are in the README ("Webhooks").',
  ].join('\n'),
  examples: [
    '--sandbox webhooks trigger bulk-task-updated',
    'webhooks trigger email-sent --webhook 69fb3ac1eda582171eb74826',
  ],
  flags: {
    webhook: flag.text('only this webhook (subscribed or not)', { value: 'id', nonEmpty: true }),
  },
  async run(ctx, opts) {
    const http = await ctx.http();
    // Only a sandbox has the endpoint: nothing (not even the key) goes to a service that is not on this machine.
    if (!ctx.flags.sandbox && !isLoopbackHost(new URL(http.origin).hostname))
      throw new UsageError(
        `webhooks trigger works only against the sandbox; ${http.origin} is not on this machine and the service has ` +
          'no endpoint that sends a sample event',
        'Try it with --sandbox, or against `outreach sandbox start`.',
      );
    const deliveries = await triggerSampleEvent(http, opts.args[0], opts.webhook);
    const failed = deliveries.filter((d) => !d.ok).length;
    const lines = deliveries.map((d) => `${d.webhookId}\t${d.statusCode || '-'}\t${d.message}\n`).join('');
    return valueResult(deliveries, lines, {
      note: deliveries.length ? undefined : `no active webhook is subscribed to ${opts.args[0]}: nothing delivered`,
      exitCode: exitCodeForItems(failed, deliveries.length),
      ...(failed && {
        failing: `${failed} of ${deliveries.length} deliveries were not answered with 2xx`,
        hint: 'The lines above give each webhook and its answer; make its URL answer 2xx to a POST.',
      }),
    });
  },
});
