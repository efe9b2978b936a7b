import { arg } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { valueResult } from '../../cli/result.js';
import { sequencesEndpoints } from '../../api/contract/sequences.js';
import { call } from '../../api/call.js';

function statusVerb(status: 'pause' | 'resume') {
  return defineVerb({
    exitCodes: [ExitCode.partial],
    args: [arg.list('sequenceId', { min: 1 })],
    description: `Unknown sequences and ones already ${status === 'pause' ? 'paused' : 'active'} count as failed; then exit 3.`,
    examples: [`sequences ${status} sqOnbrd1 sqReEngg2 --json`],
    async run(ctx, opts) {
      const ids = [...new Set(opts.args[0])];
      const body = { sequenceIds: ids, status };
      const result = (await call(await ctx.http(), sequencesEndpoints.status, { body })).payload;
      const failing = `${result.failed} of ${ids.length} sequence(s) could not be ${status}d`;
      return valueResult(result, `success\t${result.success}\nfailed\t${result.failed}\n`, {
        failing: result.failed && ctx.flags.json ? failing : undefined,
        exitCode: result.failed ? ExitCode.partial : ExitCode.ok,
      });
    },
  });
}

export const pause = statusVerb('pause');
export const resume = statusVerb('resume');
