// argv -> options for every verb, generated from its declarations: each flag reaches run() under its own name and no
// other, a switch turns on, a negatable one off, each fixed value of a flag is taken, a short alias means what its long
// name means, and a value outside the fixed ones is refused naming the flag (exit 2). The required arguments come
// from `sampleArgs`, written by hand: a verb with a required argument not in it fails here until it is added.
import { describe, expect, it } from 'vitest';
import { flagName, type FlagSpec } from '../../src/cli/flags.js';
import { parse, run } from '../helpers/run.js';
import { everyVerb, flagsOf, required } from '../helpers/verbs.js';

const verbs = await everyVerb();

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
