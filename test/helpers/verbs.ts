// Every verb of the CLI as its declarations give it, and a command line that reaches each one's run(): the required
// arguments and flags with sample values. `sampleArgs` and `sampleFlags` are written by hand: a verb with a required
// argument or flag not in them fails the tests that use this until it is added.
import { flagName, type ArgSpec, type FlagSpec } from '../../src/cli/flags.js';
import type { AnyVerb } from '../../src/cli/verb.js';
import { everyVerb as everyVerbOf, type FoundVerb } from '../../src/cli/verb-tree.js';
import { groups } from '../../src/commands/manifest.js';
import { isRequiredFlag } from '../../src/cli/mcp/tool-schema.js';

/** A valid value for each required argument, by its name. */
export const sampleArgs: Record<string, string> = {
  bulkActionId: 'ba1',
  contactId: 'ct1',
  domain: 'acme.example',
  domainId: 'dm1',
  email: 'ada@x.example',
  fieldId: 'fd1',
  file: 'leads.csv',
  item: 'ada@x.example',
  kind: 'email-sent',
  listId: 'dncGlobal1',
  method: 'GET',
  name: 'work',
  path: '/v1/unibox/categories',
  prospectId: 'pr1',
  requestId: 'rq1',
  scheduleId: '58964',
  sequenceId: 'sqOnbrd1',
  shell: 'bash',
  stepId: 'stC1mail',
  subsequenceId: 'sub1',
  taskId: 'tk000001',
  term: 'optout',
  webhookId: 'wh1',
};

/** A valid value for each flag a verb requires, by its name. */
export const sampleFlags: Record<string, string> = {
  attribute: 'at1',
  field: 'fd1=Acme',
  until: '2d',
  step: 'stC1mail',
  to: 'ada@x.example',
  fromAccount: 'ea1',
  subject: 'Hello',
  contentFile: 'body.html',
  list: 'dncGlobal1',
  prospects: 'leads.csv',
};

/** Whether run() cannot do without the flag: its parser refuses no value. */
export const isRequired = isRequiredFlag;

export type Found = FoundVerb;

/** Every verb of the CLI, as `outreach mcp` finds them. */
export const everyVerb = (): Promise<Found[]> => everyVerbOf(groups);

export const flagsOf = (verb: AnyVerb) => Object.entries((verb.flags ?? {}) as Record<string, FlagSpec<unknown>>);

/** The required arguments, then the required flags, with sample values. */
export function required(verb: AnyVerb): string[] {
  const args = ((verb.args ?? []) as ArgSpec<unknown>[])
    .filter((spec) => !spec.optional)
    .map((spec) => {
      const sample = spec.choices?.[0] ?? sampleArgs[spec.name];
      if (sample === undefined) throw new Error(`no sample for the argument <${spec.name}>: add one to sampleArgs`);
      return sample;
    });
  const flags = flagsOf(verb)
    .filter(([, spec]) => isRequired(spec))
    .flatMap(([key]) => {
      const sample = sampleFlags[key];
      if (sample === undefined)
        throw new Error(`no sample for the required flag ${flagName(key)}: add one to sampleFlags`);
      return [flagName(key), sample];
    });
  return [...args, ...flags];
}
