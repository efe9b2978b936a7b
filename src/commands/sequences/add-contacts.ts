import { resolve } from 'node:path';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { writeJson } from '../../cli/render/output.js';
import { addContacts } from '../../api/resources/sequences.js';

/** Contacts per request: spec.md sets no limit; 500 keeps a request small. */
export const contactsBatch = 500;

export default defineVerb({
  args: [arg.text('sequenceId'), arg.list('contactId')],
  examples: ['sequences add-contacts sqOnbrd1 --step stA1intro --file ids.txt'],
  flags: {
    step: flag.requiredText('the step to add them to', { value: 'stepId' }),
    file: flag.text('ids from a file, one per line (or a CSV with an id column)', { value: 'path' }),
  },
  async run(ctx, opts) {
    const [sequenceId, given] = opts.args;
    const { IdSet, idsFromFile } = await import('../../io/ids.js');
    const ids = new IdSet();
    for (const id of given) ids.add(id);
    if (opts.file) for await (const id of idsFromFile(resolve(ctx.cwd, opts.file))) ids.add(id);
    if (!ids.ids.length) throw new UsageError('no contacts: give ids or --file');
    const http = await ctx.http();
    const added: unknown[] = [];
    for (let i = 0; i < ids.ids.length; i += contactsBatch) {
      try {
        const payload = await addContacts(http, sequenceId, opts.step, ids.ids.slice(i, i + contactsBatch));
        added.push(...(Array.isArray(payload) ? payload : [payload]));
      } catch (error) {
        // Say what already went in: running the same command again is safe (adding a contact twice changes nothing).
        if (i > 0)
          ctx.warn(
            `the first ${i} of ${ids.ids.length} contacts were added before this failed; running the command again is safe`,
          );
        throw error;
      }
    }
    if (ctx.flags.json) await writeJson(ctx, added);
    ctx.info(`Added ${ids.ids.length} contact(s) to step ${opts.step} of ${sequenceId}.`);
  },
});
