// Shell completion, answered by the command definitions themselves: the shell scripts (`outreach completion SHELL`)
// call `outreach __complete WORDS...` with the words typed so far, the last one being completed, and offer what it
// prints, one candidate a line. Groups, verbs, flags and fixed flag values come from the same declarations as help
// and parsing, so completion can never drift from the commands.
import type { Context } from '../context.js';
import { flagName, type ArgSpec, type FlagSpec } from './flags.js';
import { globalFlagNames, valueOptions } from './globals.js';
import type { AnyVerb, GroupEntry, VerbEntry, SubGroup } from './verb.js';

/** A word that is no group but is completed at the top. */
const topWords = ['help'];

function flagWords(flags: Record<string, FlagSpec<unknown>>): string[] {
  return Object.entries(flags).flatMap(([key, spec]) =>
    spec.hidden ? [] : [flagName(key), ...(spec.kind === 'negatable' ? [`--no-${flagName(key).slice(2)}`] : [])],
  );
}

function valueChoices(flags: Record<string, FlagSpec<unknown>>, option: string): readonly string[] | undefined {
  for (const [key, spec] of Object.entries(flags))
    if (flagName(key) === option || spec.short === option)
      return spec.kind === 'value' || spec.kind === 'list' || spec.kind === 'optional-value'
        ? (spec.choices ?? [])
        : undefined;
  return undefined;
}

async function profileNames(ctx: Context): Promise<string[]> {
  try {
    // Loaded only here: the config reader is not on the start-up path of commands that do not need it.
    const { readConfigData } = await import('../config/config-file.js');
    return Object.keys(readConfigData(ctx.configDir).profiles);
  } catch {
    return [];
  }
}

/** The candidates for the last of `words` (the words after `outreach`). */
export async function complete(ctx: Context, words: string[], groups: GroupEntry[]): Promise<string[]> {
  const current = words[words.length - 1] ?? '';
  const previous = words[words.length - 2];
  const matching = (candidates: readonly string[]) => candidates.filter((c) => c.startsWith(current));
  if (previous === '--profile' || previous === '-p') return matching(await profileNames(ctx));
  if (previous !== undefined && valueOptions.has(previous)) return [];

  // The group, verb and arguments typed before the current word, global flags and their values left out.
  const positional: string[] = [];
  const typed = words.slice(0, -1);
  for (let i = 0; i < typed.length; i++) {
    if (valueOptions.has(typed[i]!)) i++;
    else if (!typed[i]!.startsWith('-')) positional.push(typed[i]!);
  }
  const [groupName, ...rest] = positional;
  if (groupName === undefined)
    return current.startsWith('-') ? matching(globalFlagNames) : matching([...groups.map((g) => g.name), ...topWords]);
  if (groupName === 'help')
    return rest.length
      ? []
      : matching([...groups.map((g) => g.name), 'exit-codes', 'environment', 'formats', 'security']);

  const entry = groups.find((g) => g.name === groupName);
  if (!entry) return [];
  const spec = (await entry.load()).group;
  let level: Array<VerbEntry | SubGroup> = spec.verbs ?? [];
  // A group that is a verb itself is that verb, unless the next word names one of its own verbs.
  let verbEntry: VerbEntry | undefined = level.some((v) => v.name === rest[0]) ? undefined : spec.self;
  let args = rest;
  while (!verbEntry) {
    const [name, ...after] = args;
    if (name === undefined)
      return current.startsWith('-') ? matching(globalFlagNames) : matching(level.map((v) => v.name));
    const found = level.find((v) => v.name === name);
    if (!found) return [];
    if ('verbs' in found) level = found.verbs;
    else verbEntry = found;
    args = after;
  }
  const verb = (await verbEntry.load()).default as AnyVerb;
  const flags = (verb.flags ?? {}) as Record<string, FlagSpec<unknown>>;
  const choices = previous?.startsWith('-') ? valueChoices(flags, previous) : undefined;
  if (choices) return matching(choices);
  if (current.startsWith('-')) return matching([...flagWords(flags), ...globalFlagNames]);
  // The argument being typed: words after the verb that are neither flags nor a flag's value.
  let given = 0;
  const afterVerb = typed.slice(typed.lastIndexOf(verbEntry.name) + 1);
  for (let i = 0; i < afterVerb.length; i++) {
    const word = afterVerb[i]!;
    if (valueOptions.has(word) || valueChoices(flags, word) !== undefined) i++;
    else if (!word.startsWith('-')) given++;
  }
  const argSpecs = (verb.args ?? []) as ArgSpec<unknown>[];
  const next = argSpecs[Math.min(given, argSpecs.length - 1)];
  return next?.choices && (given < argSpecs.length || next.variadic) ? matching(next.choices) : [];
}
