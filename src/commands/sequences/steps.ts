import { arg } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { stepVariants } from '../../api/resources/sequences.js';
import { stepTypeNames, variantStatusNames, type Variant } from '../../api/contract/sequences.js';

const named = (code: number | null | undefined, names: Record<number, string>) =>
  code === null || code === undefined ? '' : names[code] ? `${code} ${names[code]}` : String(code);

function summary(v: Variant): string {
  const p = (v.payload ?? {}) as Record<string, unknown>;
  const text = [p.subject, p.connectionNote, p.message, p.title].find((x) => typeof x === 'string' && x) as
    string | undefined;
  return (text ?? v.taskNote ?? '').replace(/\s+/g, ' ').slice(0, 80);
}

export default defineVerb({
  agent: { kind: 'read' },
  args: [arg.text('sequenceId'), arg.text('stepId')],
  description:
    'Type codes: 1 Email, 2-6 LinkedIn, 9 custom task, 11-15 calls, 16-18 WhatsApp; status 0 inactive, 1 active. ' +
    'The meaning of executionType and stepStatus is not documented: they are shown as numbers.',
  examples: ['sequences steps sqOnbrd1 stA1intro --json'],
  async run(ctx, opts) {
    const variants = await stepVariants(await ctx.http(), ...opts.args);
    return listResult(
      variants,
      [
        { header: 'ID', value: (v) => v.id },
        { header: 'TYPE', value: (v) => named(v.type, stepTypeNames) },
        { header: 'STATUS', value: (v) => named(v.status, variantStatusNames) },
        { header: 'EXECUTION', value: (v) => v.executionType },
        { header: 'STEP STATUS', value: (v) => v.stepStatus },
        { header: 'CONTENT', value: summary },
      ],
      { emptyMessage: 'the step has no variants' },
    );
  },
});
