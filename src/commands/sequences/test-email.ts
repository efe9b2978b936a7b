import { doneResult } from '../../cli/result.js';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { sequencesEndpoints } from '../../api/contract/sequences.js';
import { call } from '../../api/call.js';
import { emailProblem } from '../../io/email.js';
import { readInputText } from '../../io/input-file.js';

export default defineVerb({
  agent: { kind: 'paid', idempotent: false },
  args: [arg.text('sequenceId')],
  description:
    'The sending account must already be connected to the sequence. A test email is never sent twice by a retry.',
  examples: [
    'sequences test-email sqOnbrd1 --to me@x.example --to ops@x.example --from-account ea1Alice --subject T --content-file - < b.html',
  ],
  flags: {
    to: flag.list('recipient', { value: 'email', min: 1 }),
    fromAccount: flag.requiredText('sending email account id', { value: 'id' }),
    subject: flag.requiredText('subject line'),
    contentFile: flag.requiredText('HTML body from a file; - for stdin', { value: 'file' }),
    preheader: flag.text('preheader text'),
  },
  async run(ctx, opts) {
    const bad = opts.to.filter((t) => emailProblem(t.trim()));
    if (bad.length) throw new UsageError(`--to: not an email: ${bad.join(', ')}`);
    const content = await readInputText(opts.contentFile, ctx, `--content-file: ${opts.contentFile}`);
    if (!content.trim()) throw new UsageError(`--content-file: ${opts.contentFile} is empty`);
    const { message } = await call(await ctx.http(), sequencesEndpoints.testEmail, {
      params: { sequenceId: opts.args[0] },
      body: {
        to: opts.to.map((t) => t.trim()),
        fromEmailAccountId: opts.fromAccount,
        subject: opts.subject,
        content,
        ...(opts.preheader !== undefined ? { preheader: opts.preheader } : {}),
      },
    });
    return doneResult(`Test email sent to ${opts.to.join(', ')}${message ? `: ${message}` : ''}.`);
  },
});
