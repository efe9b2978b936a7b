// argv -> options for every verb, generated from its declarations: each flag reaches run() under its own name and no
// other, a switch turns on, a negatable one off, each fixed value of a flag is taken, a short alias means what its long
// name means, and a value outside the fixed ones is refused naming the flag (exit 2). The required arguments come
// from `sampleArgs`, written by hand: a verb with a required argument not in it fails here until it is added.
import { describe, expect, it } from 'vitest';
import { flagName, type ArgSpec, type FlagSpec } from '../../src/cli/flags.js';
import type { AnyVerb, SubGroup, VerbEntry } from '../../src/cli/verb.js';
import { groups } from '../../src/commands/manifest.js';
import { parse, run } from '../helpers/run.js';

/** A valid value for each required argument, by its name. */
const sampleArgs: Record<string, string> = {
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
  sequenceId: 'sqOnbrd1',
  shell: 'bash',
  stepId: 'stC1mail',
  subsequenceId: 'sub1',
  taskId: 'tk000001',
  term: 'optout',
  webhookId: 'wh1',
};

/** A valid value for each flag a verb requires, by its name. */
const sampleFlags: Record<string, string> = {
  attribute: 'at1',
  field: 'fd1=Acme',
  until: '2d',
  step: 'stC1mail',
  to: 'ada@x.example',
  fromAccount: 'ea1',
  subject: 'Hello',
  contentFile: 'body.html',
};

/** Whether run() cannot do without the flag: its parser refuses no value. */
function isRequired(spec: FlagSpec<unknown>): boolean {
  try {
    spec.parse(undefined);
    return false;
  } catch {
    return true;
  }
}

interface Found {
  path: string[];
  verb: AnyVerb;
}

async function everyVerb(): Promise<Found[]> {
  const found: Found[] = [];
  const add = async (path: string[], entry: VerbEntry | SubGroup) => {
    if ('verbs' in entry) for (const verb of entry.verbs) await add([...path, entry.name], verb);
    else found.push({ path: [...path, entry.name], verb: (await entry.load()).default });
  };
  for (const group of groups) {
    const spec = (await group.load()).group;
    if (spec.self) found.push({ path: [group.name], verb: (await spec.self.load()).default });
    else for (const entry of spec.verbs) await add([group.name], entry);
  }
  return found;
}

const verbs = await everyVerb();
const flagsOf = (verb: AnyVerb) => Object.entries((verb.flags ?? {}) as Record<string, FlagSpec<unknown>>);

/** The required arguments, then the required flags, with sample values. */
function required(verb: AnyVerb): string[] {
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

describe.each(verbs.map((v) => [v.path.join(' '), v] as const))('%s', (_name, { path, verb }) => {
  const base = [...path, ...required(verb)];
  const flags = flagsOf(verb);

  it('hands run() every declared flag under its own name, and nothing else', async () => {
    const { options } = await parse(base);
    expect(Object.keys(options as object).sort()).toEqual(['args', ...flags.map(([key]) => key)].sort());
  });

  const named = (kept: Array<[string, FlagSpec<unknown>]>) =>
    kept.map(([key, spec]) => [flagName(key), key, spec] as const);

  it.each(named(flags.filter(([, spec]) => spec.kind === 'bool' || spec.kind === 'negatable')))(
    '%s switches',
    async (_flag, key, spec) => {
      expect(((await parse([...base, flagName(key)])).options as Record<string, unknown>)[key]).toBe(true);
      if (spec.kind === 'negatable') {
        const off = await parse([...base, `--no-${flagName(key).slice(2)}`]);
        expect((off.options as Record<string, unknown>)[key]).toBe(false);
      }
    },
  );

  it.each(named(flags.filter(([, spec]) => spec.choices?.length && spec.kind === 'value')))(
    '%s takes each of its values and refuses others',
    async (_flag, key, spec) => {
      for (const choice of spec.choices!) {
        const value = ((await parse([...base, flagName(key), choice])).options as Record<string, unknown>)[key];
        expect(spec.choices).toContain(Array.isArray(value) ? value[0] : value);
      }
      const refused = await run([...base, flagName(key), 'not-one-of-them']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`^error: ${flagName(key)}`));
    },
  );

  it.each(named(flags.filter(([, spec]) => spec.short && spec.kind === 'bool')))(
    '%s has a short alias',
    async (_flag, key, spec) => {
      const short = await parse([...base, spec.short!]);
      const long = await parse([...base, flagName(key)]);
      expect(short.options).toEqual(long.options);
    },
  );
});
