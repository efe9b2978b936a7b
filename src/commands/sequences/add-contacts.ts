import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { doneResult } from '../../cli/result.js';

export default defineVerb({
  // Contacts added to a step are mailed by it.
  agent: { kind: 'paid', idempotent: true, job: true },
  args: [arg.text('sequenceId'), arg.list('contactId')],
  examples: ['sequences add-contacts sqOnbrd1 --step stA1intro --file ids.txt'],
  flags: {
    step: flag.requiredText('the step to add them to', { value: 'stepId' }),
    file: flag.text('ids from a file, one per line (or a CSV with an id column); - for stdin', { value: 'path' }),
  },
  async run(ctx, opts) {
    const [sequenceId, given] = opts.args;
    const { IdSet, idsFromFile } = await import('../../io/ids.js');
    const ids = new IdSet();
    for (const id of given) ids.add(id);
    if (opts.file) {
      for await (const id of idsFromFile(opts.file, ctx, `--file: ${opts.file}`)) ids.add(id);
      if (!ids.ids.length) throw new UsageError(`--file: ${opts.file}: no ids in it`);
    }
    if (!ids.ids.length) throw new UsageError('no contacts: give ids or --file');
    const { runAddContacts, AddContactsFailed } = await import('../../jobs/add-contacts.js');
    let added: unknown[];
    try {
      ({ added } = await ctx.job((job) => runAddContacts(job, sequenceId, opts.step, ids.ids)));
    } catch (error) {
      if (!(error instanceof AddContactsFailed)) throw error;
      // Say what already went in: running the same command again is safe (adding a contact twice changes nothing).
      if (error.addedBefore > 0) {
        const { addedBefore, total } = error;
        ctx.warn(
          `the first ${addedBefore} of ${total} contacts were added before this failed; running the command again is safe`,
        );
      }
      throw error.cause;
    }
    return doneResult(`Added ${ids.ids.length} contact(s) to step ${opts.step} of ${sequenceId}.`, added);
  },
});
