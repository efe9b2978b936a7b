import { createInterface } from 'node:readline';
import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { UsageError } from '../../errors.js';
import { listResult } from '../../cli/result.js';
import { prospectsEndpoints } from '../../api/contract/prospects.js';
import { call } from '../../api/call.js';
import { fileProblem, openInput, type InputPlace } from '../../io/input-file.js';

/** Emails per request: spec.md gives no limit; 1000 keeps each request small. */
export const verifyChunkSize = 1000;

async function* linesOf(value: string, place: InputPlace): AsyncGenerator<string> {
  const shown = `--file: ${value}`;
  const { stream } = openInput(value, place, shown);
  stream.setEncoding('utf8');
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      const email = line.replace(/^\uFEFF/, '').trim();
      if (email) yield email;
    }
  } catch (error) {
    throw new UsageError(`${shown}: ${fileProblem(error)}`);
  }
}

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.list('email')],
  description: `Emails come from the arguments or --file (one per line). Long lists are sent ${verifyChunkSize} at a time.`,
  examples: ['prospects verify --file emails.txt --csv > status.csv'],
  flags: { file: flag.text('read emails from a file, one per line; - for stdin', { value: 'path' }) },
  async run(ctx, opts) {
    const [emails] = opts.args;
    if (!emails.length && !opts.file) throw new UsageError('give emails as arguments or --file emails.txt');
    const http = await ctx.http();
    async function* all(): AsyncGenerator<string> {
      yield* emails;
      if (opts.file) yield* linesOf(opts.file, ctx);
    }
    // The emails' statuses, a batch of verifyChunkSize a request, as they are read.
    async function* statuses(): AsyncGenerator<Array<{ email: string; verificationStatus: string }>> {
      let batch: string[] = [];
      const ask = async () =>
        (await call(http, prospectsEndpoints.verificationStatus, { body: { emails: batch } })).payload;
      for await (const email of all()) {
        batch.push(email);
        if (batch.length < verifyChunkSize) continue;
        yield await ask();
        batch = [];
      }
      if (batch.length) yield await ask();
    }
    return listResult({ pages: statuses() }, [
      { header: 'EMAIL', value: (r) => r.email, key: true },
      { header: 'STATUS', value: (r) => r.verificationStatus },
    ]);
  },
});
