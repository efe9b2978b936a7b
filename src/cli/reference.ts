// The whole command tree as data, read from the same definitions as help, parsing and completion: every group and
// verb loaded. `npm run docs` renders it as docs/commands.md and the man page; tests check every example parses.
import { exitCodeTable, ExitCode } from './exit-codes.js';
import { flagName, optionSyntax, type ArgSpec, type FlagSpec } from './flags.js';
import { globalSwitches, globalValueFlags } from './globals.js';
import { examplesOf, type AnyVerb, type GroupEntry, type SubGroup, type VerbEntry } from './verb.js';

export interface CommandDoc {
  /** "tasks list", "prospects attribute set". */
  path: string;
  summary: string;
  /** Paragraphs, separated by blank lines. */
  description?: string;
  usage: string;
  args: Array<{ name: string; help: string }>;
  flags: Array<{ syntax: string; help: string }>;
  /** Command lines; those that start with another program include `outreach`. */
  examples: string[];
  exitCodes: ExitCode[];
}

/** The codes any command may end with: success, failure, bad usage, auth, rate limits, Ctrl-C, a closed stdout. */
export const commonExitCodes: ExitCode[] = [0, 1, 2, 4, 5, 130, 141];

export function globalFlagDocs(): Array<{ syntax: string; help: string }> {
  return [
    ...globalSwitches.map(({ flags, help }) => ({ syntax: flags, help })),
    ...Object.entries(globalValueFlags).map(([key, spec]) => {
      const { flags, help } = optionSyntax(key, spec as FlagSpec<unknown>);
      return { syntax: flags, help };
    }),
  ];
}

export { exitCodeTable };

/** Every command, in the order `outreach --help` lists them. */
export async function commandDocs(groups: GroupEntry[]): Promise<CommandDoc[]> {
  const docs: CommandDoc[] = [];
  for (const group of groups) {
    const spec = (await group.load()).group;
    if (spec.self) docs.push(await verbDoc(group.name, spec.self));
    for (const entry of spec.verbs ?? []) docs.push(...(await entryDocs(group.name, entry)));
  }
  return docs;
}

async function entryDocs(prefix: string, entry: VerbEntry | SubGroup): Promise<CommandDoc[]> {
  const path = `${prefix} ${entry.name}`;
  if (!('verbs' in entry)) return [await verbDoc(path, entry)];
  const docs = [];
  for (const verb of entry.verbs) docs.push(await verbDoc(`${path} ${verb.name}`, verb));
  return docs;
}

async function verbDoc(path: string, entry: VerbEntry): Promise<CommandDoc> {
  const verb: AnyVerb = (await entry.load()).default;
  const args = ((verb.args ?? []) as ArgSpec<unknown>[]).map((spec) => ({
    name: `${spec.optional ? '[' : '<'}${spec.name}${spec.variadic ? '...' : ''}${spec.optional ? ']' : '>'}`,
    help: spec.help ?? '',
  }));
  const flags = Object.entries((verb.flags ?? {}) as Record<string, FlagSpec<unknown>>).flatMap(([key, spec]) => {
    if (spec.hidden) return [];
    const { flags: syntax, help } = optionSyntax(key, spec);
    const negated =
      spec.kind === 'negatable' ? [{ syntax: `--no-${flagName(key).slice(2)}`, help: spec.defaultText ?? '' }] : [];
    return [{ syntax, help }, ...negated];
  });
  return {
    path,
    summary: entry.summary,
    description: verb.description,
    usage: `outreach ${path}${flags.length ? ' [options]' : ''}${args.map((a) => ` ${a.name}`).join('')}`,
    args,
    flags,
    examples: examplesOf(entry, verb).map((e) => (/\boutreach /.test(e) ? e : `outreach ${e}`)),
    exitCodes: [...commonExitCodes, ...(verb.exitCodes ?? [])].sort((a, b) => a - b),
  };
}
