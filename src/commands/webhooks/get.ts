import { recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { arg, flag } from '../../cli/flags.js';
import { webhooksEndpoints } from '../../api/contract/webhooks.js';
import { call } from '../../api/call.js';
import { webhookFields, webhookJson } from './columns.js';

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('webhookId')],
  description:
    'Status, failed flag, the last failure (local time, HTTP status, message), events and custom headers.\n' +
    'Header values are shown as *** unless --show-secrets: they often hold the secret a receiver checks.',
  examples: ['webhooks get 69fb3ac1eda582171eb74826', 'webhooks get 69fb3ac1eda582171eb74826 --json --show-secrets'],
  flags: {
    showSecrets: flag.bool('show the values of the custom headers'),
  },
  async run(ctx, opts) {
    const params = { webhookId: opts.args[0] };
    const webhook = (await call(await ctx.http(), webhooksEndpoints.get, { params })).payload;
    return recordResult(webhook, webhookFields(opts.showSecrets), webhookJson(webhook, opts.showSecrets));
  },
});
