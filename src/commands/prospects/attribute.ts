import { listResult, recordResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { arg, flag, ValueProblem } from '../../cli/flags.js';
import type { Column } from '../../cli/render/columns.js';
import { ExitCode, exitCodeForItems } from '../../cli/exit-codes.js';
import { setAttributes } from '../../api/resources/prospects.js';
import { prospectsEndpoints } from '../../api/contract/prospects.js';
import { call } from '../../api/call.js';

const get = defineVerb({
  agent: { kind: 'read' },
  examples: ['prospects attribute get --attribute atPain005 --prospect prLinus05 --json'],
  flags: {
    attribute: flag.requiredText('attribute id', { value: 'id' }),
    prospect: flag.text('prospect id (narrows the lookup)', { value: 'id', nonEmpty: true }),
  },
  async run(ctx, opts) {
    const query = { attributeId: opts.attribute, prospectId: opts.prospect };
    const attribute = await call(await ctx.http(), prospectsEndpoints.getAttribute, { query });
    return recordResult(attribute, [
      { header: 'Attribute', value: (a) => a.attributeId },
      { header: 'Prospect', value: (a) => a.prospectId },
      { header: 'Field', value: (a) => a.fieldRefId },
      { header: 'Value', value: (a) => a.attributeValue },
    ]);
  },
});

function fieldPair(pair: string): { fieldId: string; attributeValue: string } {
  const at = pair.indexOf('=');
  if (at <= 0) throw new ValueProblem(`takes fieldId=value, not "${pair}"`);
  return { fieldId: pair.slice(0, at), attributeValue: pair.slice(at + 1) };
}

const set = defineVerb({
  agent: { kind: 'write', idempotent: true },
  exitCodes: [ExitCode.partial],
  args: [arg.text('prospectId')],
  description: 'Exit 3 when the service refused any field (for example an unknown field id).',
  examples: ['prospects attribute set prLinus05 --field cPainPnt=x --field cIcebrkr="Loved your talk"'],
  flags: {
    field: flag.list('a field and its new value', { value: 'fieldId=value', min: 1, each: fieldPair }),
  },
  async run(ctx, opts) {
    const results = await setAttributes(await ctx.http(), opts.args[0], opts.field);
    const failed = results.filter((r) => !r.success).length;
    const columns: Column<(typeof results)[number]>[] = [
      { header: 'FIELD', value: (r) => r.fieldId },
      { header: 'RESULT', value: (r) => (r.success ? 'updated' : 'failed') },
    ];
    if (!failed) return listResult(results, columns);
    return listResult(results, columns, undefined, {
      failing: `${failed} of ${results.length} fields were not updated`,
      hint: 'Check the field ids with `outreach fields list`.',
      exitCode: exitCodeForItems(failed, results.length),
    });
  },
});

export { get, set };
