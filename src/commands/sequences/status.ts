import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode, exitCodeForItems } from '../../cli/exit-codes.js';
import { valueResult } from '../../cli/result.js';
import { sequencesEndpoints } from '../../api/contract/sequences.js';
import { call } from '../../api/call.js';

const state = (status: 'pause' | 'resume') => (status === 'pause' ? 'paused' : 'active');

function statusVerb(status: 'pause' | 'resume') {
  return defineVerb({
    // Pausing stops every mail of the sequence; resuming starts sending mail again.
    agent: status === 'pause' ? { kind: 'destructive', idempotent: true } : { kind: 'paid', idempotent: true },
    exitCodes: [ExitCode.partial],
    args: [arg.list('sequenceId', { min: 1 })],
    description:
      `Unknown sequences and ones already ${state(status)} count as failed: ` + 'exit 1 when all did, 3 when some.',
    examples: [`sequences ${status} sqOnbrd1 sqReEngg2 --json`],
    async run(ctx, opts) {
      const ids = [...new Set(opts.args[0])];
      const body = { sequenceIds: ids, status };
      const result = (await call(await ctx.http(), sequencesEndpoints.status, { body })).payload;
      return valueResult(result, `success\t${result.success}\nfailed\t${result.failed}\n`, {
        exitCode: exitCodeForItems(result.failed, ids.length),
        ...(result.failed && {
          failing: `${result.failed} of ${ids.length} sequence(s) could not be ${status}d`,
          hint:
            `The service does not say which: an unknown id, or a sequence already ${state(status)}, counts as ` +
            'failed. Check the ids in the web app.',
        }),
      });
    },
  });
}

export const pause = statusVerb('pause');
export const resume = statusVerb('resume');
