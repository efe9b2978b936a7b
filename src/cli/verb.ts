// A verb: its arguments and flags (declared once, see flags.ts), the rules between them, its help, and run().
// attachVerb() wires one into commander: raw values -> declarations -> rules -> typed options -> run(ctx, opts).
import { Option, type Command } from 'commander';
import type { CommandContext } from './command-context.js';
import { UsageError } from '../errors.js';
import type { ExitCode } from './exit-codes.js';
import type { VerbResult } from './result.js';
import { globalFlagNames } from './globals.js';
import {
  flagName,
  optionSyntax,
  ValueProblem,
  type ArgSpec,
  type ArgValues,
  type FlagSpec,
  type FlagValues,
} from './flags.js';

type Args = readonly ArgSpec<unknown>[];
type Flags = Record<string, FlagSpec<unknown>>;
export type Options<A extends Args, F extends Flags> = { args: ArgValues<A> } & FlagValues<F>;

/** A rule between flags: the message when it is broken. */
export type Rule<O> = (opts: O) => string | undefined;

/** What a verb does to the account, for agents: `outreach mcp` takes each tool's annotations and guard from it.
 * - read: changes nothing;
 * - write: adds or changes (`idempotent` when doing it again changes nothing more); `guardedWhen` names flag values
 *   that make it destructive (an import that overwrites, or that skips the do-not-contact check: `false`);
 * - destructive, paid: removes, stops or overwrites; spends credits or money or sends mail: two calls, a preview first;
 * - leftOut: no tool, for the reason given (it needs a terminal, runs until stopped, or bypasses the guards);
 * `job`: it may run for minutes (an upload, a bulk action), so an agent gets a handle at once and follows it;
 * `local`: it works on this machine only (the sandbox's state, the audit log), never the service;
 * `affected`: how many records its --dry-run result says it would touch, where that is not a list of items or a
 *   total (mcp/affected.ts); --max-affected counts by it. */
export type AgentEffect =
  | { kind: 'read'; local?: true }
  | {
      kind: 'write';
      idempotent: boolean;
      guardedWhen?: Record<string, readonly string[]>;
      job?: true;
      affected?: AffectedCount;
    }
  | { kind: 'destructive' | 'paid'; idempotent: boolean; job?: true; local?: true; affected?: AffectedCount }
  | { kind: 'leftOut'; why: string };

/** The records a --dry-run result (its JSON) says the call would touch; undefined when it does not say. */
export type AffectedCount = (preview: Record<string, unknown>) => number | undefined;

/** A verb's definition; its name, summary and headline example sit in its group's index (VerbEntry). */
export interface Verb<A extends Args, F extends Flags> {
  /** What it does to the account, for agents (see AgentEffect). */
  agent: AgentEffect;
  args?: A;
  flags?: F;
  rules?: Array<Rule<Options<A, F>>>;
  /** Extra help paragraphs shown under the usage. */
  description?: string;
  /** More examples for --help, after the entry's headline one. Full command lines without the leading `outreach`. */
  examples: string[];
  /** Exit codes this verb may end with beyond those of every command (0, 1, 2, 4, 5, 130, 141): partial success. */
  exitCodes?: ExitCode[];
  /** Computes; returns what to show (rendered by the CLI), or the exit code of a verb that wrote its own output. */
  run(ctx: CommandContext, opts: Options<A, F>): Promise<ExitCode | void | VerbResult>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyVerb = Verb<any, any>;

export function defineVerb<const A extends Args = [], F extends Flags = Record<never, never>>(
  verb: Verb<A, F>,
): Verb<A, F> {
  return verb;
}

const isSet = (value: unknown) => value !== undefined && value !== false && !(Array.isArray(value) && !value.length);

type Loose = Record<string, unknown>;

/** Two flags that cannot be used together. */
export function conflicts(a: string, b: string): Rule<Loose> {
  return (opts) =>
    isSet(opts[a]) && isSet(opts[b]) ? `${flagName(a)} and ${flagName(b)} cannot be used together` : undefined;
}

/** A flag that needs another one, and why. */
export function requires(a: string, b: string, why: string): Rule<Loose> {
  return (opts) => (isSet(opts[a]) && !isSet(opts[b]) ? `${flagName(a)} needs ${flagName(b)}: ${why}` : undefined);
}

/** A verb as its group's index names it: cheap to list, loaded only when the command line names it. */
export interface VerbEntry {
  name: string;
  summary: string;
  /** The headline example, shown in the group's help and first in the verb's. */
  example: string;
  load(): Promise<{ default: AnyVerb }>;
}

/** Verbs under a name of their own: `outreach sequences subsequence update`. */
export interface SubGroup {
  name: string;
  summary: string;
  verbs: VerbEntry[];
}

/** What a group's index.ts exports: its verbs, or (like `api`) the one verb the group itself is, or both (`outreach
 * mcp` serves, `outreach mcp audit` is a verb of it). */
export type GroupSpec =
  { verbs: Array<VerbEntry | SubGroup>; self?: VerbEntry } | { self: VerbEntry; verbs?: Array<VerbEntry | SubGroup> };

/** How the CLI treats a parsed verb: run it, or (in parse tests) hand back the options. */
export type VerbInvoker = (verb: AnyVerb, command: Command, options: unknown) => Promise<void>;

function argSyntax(spec: ArgSpec<unknown>): string {
  const name = `${spec.name}${spec.variadic ? '...' : ''}`;
  return spec.optional ? `[${name}]` : `<${name}>`;
}

/** The examples --help and the reference show: the entry's headline one, then the verb's own that differ from it. */
export function examplesOf(entry: VerbEntry, verb: AnyVerb): string[] {
  return [...new Set([entry.example, ...verb.examples])];
}

/** An example is an outreach command line without its first word; one that names `outreach` itself (a pipeline
 * that starts with another program) is shown as written. */
export function formatExamples(examples: string[]): string {
  const line = (example: string) => (/\boutreach /.test(example) ? example : `outreach ${example}`);
  return `\nExamples:\n${examples.map((example) => `  $ ${line(example)}`).join('\n')}\n`;
}

/**
 * Adds a group's verbs under `parent`. Only the verb that `words` (the command line after the group) names is
 * loaded; the others are listed by name and summary, which is all the group's help shows.
 */
export async function registerVerbs(
  parent: Command,
  entries: Array<VerbEntry | SubGroup>,
  words: string[],
  invoke: VerbInvoker,
  /** Whether the group's help ends with its verbs' examples (not where the group is a verb too: attachVerb's
   * `subverbs` puts them in that verb's one Examples block). */
  { examples = true } = {},
): Promise<void> {
  const [wanted, ...rest] = words;
  for (const entry of entries) {
    const cmd = parent.command(entry.name).summary(entry.summary).description(entry.summary);
    if ('verbs' in entry) await registerVerbs(cmd, entry.verbs, entry.name === wanted ? rest : [], invoke);
    else if (entry.name === wanted) await attachVerb(cmd, entry, invoke);
  }
  if (examples) parent.addHelpText('after', formatExamples(entryExamples(entries)));
}

/** One example of each verb, a subgroup's included. */
export function entryExamples(entries: Array<VerbEntry | SubGroup>): string[] {
  return entries.flatMap((entry) => ('verbs' in entry ? entry.verbs.map((v) => v.example) : [entry.example]));
}

/** Every verb also takes the global flags: named under its own, as gh's "INHERITED FLAGS" does. */
const inheritedFlags = `\n${wrapWords(`Global flags: ${globalFlagNames.join(' ')} (outreach --help says what each does)`, 80)}\n`;

/** Words in lines of at most `width` columns, the later ones indented by two. (Not render/fit.ts's wrap: that loads
 * string-width for every command, and these words are plain ASCII.) */
function wrapWords(text: string, width: number): string {
  const lines = [''];
  for (const word of text.split(' ')) {
    const line = lines[lines.length - 1]!;
    if (line && line.length + 1 + word.length > width) lines.push(`  ${word}`);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines.join('\n');
}

/** Loads the entry's verb and makes `cmd` run it. */
export async function attachVerb(
  cmd: Command,
  entry: VerbEntry,
  invoke: VerbInvoker,
  /** Where the verb is a group too (mcp and its audit): its verbs, whose examples follow the verb's own. */
  subverbs: Array<VerbEntry | SubGroup> = [],
): Promise<void> {
  const verb = (await entry.load()).default;
  // Descriptions are written as paragraphs; commander wraps them to the terminal, so single line breaks go.
  const description = verb.description?.replace(/([^\n])\n(?!\n)/g, '$1 ');
  cmd.summary(entry.summary).description(description ? `${entry.summary}\n\n${description}` : entry.summary);
  for (const spec of (verb.args ?? []) as Args) cmd.argument(argSyntax(spec), spec.help);
  for (const [key, spec] of Object.entries((verb.flags ?? {}) as Flags)) {
    for (const name of [key, ...(spec.aliases ?? [])]) {
      // An alias is the same option under an earlier name, without the short form and unlisted.
      const { flags, help } = optionSyntax(name, name === key ? spec : { ...spec, short: undefined });
      const option = new Option(flags, help).hideHelp(name !== key || Boolean(spec.hidden));
      if (spec.kind === 'list') option.argParser((value: string, previous: string[] = []) => [...previous, value]);
      cmd.addOption(option);
      if (spec.kind === 'negatable')
        cmd.addOption(new Option(`--no-${flagName(name).slice(2)}`, spec.defaultText).hideHelp(name !== key));
    }
  }
  const examples = [...new Set([...examplesOf(entry, verb), ...entryExamples(subverbs)])];
  cmd.addHelpText('after', `${formatExamples(examples)}${inheritedFlags}`);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    await invoke(verb, command, parseVerbOptions(verb, command));
  });
}

function parseVerbOptions(verb: AnyVerb, command: Command): unknown {
  const hint = `See \`outreach ${commandPath(command)} --help\`.`;
  const read = <T>(what: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      if (error instanceof ValueProblem) throw new UsageError(`${what} ${error.message}`, hint);
      throw error;
    }
  };
  const raw = command.opts();
  const args = ((verb.args ?? []) as Args).map((spec, i) =>
    read(`<${spec.name}>`, () => spec.parse(command.processedArgs[i])),
  );
  const options: Record<string, unknown> = { args };
  for (const [key, spec] of Object.entries((verb.flags ?? {}) as Flags)) {
    const given = [key, ...(spec.aliases ?? [])].filter((name) => raw[name] !== undefined);
    if (given.length > 1)
      throw new UsageError(`${given.map(flagName).join(' and ')} are the same flag: give it once`, hint);
    const name = given[0] ?? key;
    options[key] = read(flagName(name), () => spec.parse(raw[name]));
  }
  for (const rule of verb.rules ?? []) {
    const broken = rule(options as Parameters<AnyVerb['run']>[1]);
    if (broken) throw new UsageError(broken, hint);
  }
  return options;
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A command group as the program knows it before loading it: its name, summary and headline example. */
export interface GroupModule {
  group: GroupSpec;
}

export interface GroupEntry {
  name: string;
  summary: string;
  example: string;
  load(): Promise<GroupModule>;
}
