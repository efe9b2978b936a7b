// A verb: its arguments and flags (declared once, see flags.ts), the rules between them, its help, and run().
// attachVerb() wires one into commander: raw values -> declarations -> rules -> typed options -> run(ctx, opts).
import type { Command } from 'commander';
import type { CommandContext } from './command-context.js';
import { UsageError } from '../errors.js';
import type { ExitCode } from './exit-codes.js';
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

export interface Verb<A extends Args, F extends Flags> {
  name: string;
  args?: A;
  flags?: F;
  rules?: Array<Rule<Options<A, F>>>;
  summary: string;
  /** Extra help paragraphs shown under the usage. */
  description?: string;
  /** Shown in --help; at least one. Each is a full command line without the leading `outreach`. */
  examples: string[];
  run(ctx: CommandContext, opts: Options<A, F>): Promise<ExitCode | void>;
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

/** How the CLI treats a parsed verb: run it, or (in parse tests) hand back the options. */
export type VerbInvoker = (verb: AnyVerb, command: Command, options: unknown) => Promise<void>;

export function usageOf(verb: AnyVerb): string {
  const args = (verb.args ?? []) as Args;
  return [verb.name, ...args.map(argSyntax)].join(' ');
}

function argSyntax(spec: ArgSpec<unknown>): string {
  const name = `${spec.name}${spec.variadic ? '...' : ''}`;
  return spec.optional ? `[${name}]` : `<${name}>`;
}

export function formatExamples(examples: string[]): string {
  return `\nExamples:\n${examples.map((example) => `  $ outreach ${example}`).join('\n')}\n`;
}

/** The first example of each verb added under a command, for that command's own --help. */
const examplesUnder = new WeakMap<Command, string[]>();

export function addVerb(parent: Command, verb: AnyVerb, invoke: VerbInvoker): Command {
  const first = verb.examples[0];
  if (first) examplesUnder.set(parent, [...(examplesUnder.get(parent) ?? []), first]);
  return attachVerb(parent.command(verb.name), verb, invoke);
}

/** Gives a group (and its nested groups) an Examples section made of its verbs' first examples. */
export function addGroupExamples(group: Command): void {
  for (const child of group.commands) addGroupExamples(child);
  const examples = examplesUnder.get(group);
  if (examples?.length) group.addHelpText('after', formatExamples(examples));
}

/** Makes an existing command (a group like `api` that is itself the verb) run this verb. */
export function attachVerb(cmd: Command, verb: AnyVerb, invoke: VerbInvoker): Command {
  // Descriptions are written as paragraphs; commander wraps them to the terminal, so single line breaks go.
  const description = verb.description?.replace(/([^\n])\n(?!\n)/g, '$1 ');
  cmd.summary(verb.summary).description(description ? `${verb.summary}\n\n${description}` : verb.summary);
  for (const spec of (verb.args ?? []) as Args) cmd.argument(argSyntax(spec), spec.help);
  for (const [key, spec] of Object.entries((verb.flags ?? {}) as Flags)) {
    const { flags, help } = optionSyntax(key, spec);
    if (spec.kind === 'list') cmd.option(flags, help, (value: string, previous: string[] = []) => [...previous, value]);
    else cmd.option(flags, help);
    if (spec.kind === 'negatable') cmd.option(`--no-${flagName(key).slice(2)}`, spec.defaultText);
  }
  cmd.addHelpText('after', formatExamples(verb.examples));
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    await invoke(verb, command, parseVerbOptions(verb, command));
  });
  return cmd;
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
    options[key] = read(flagName(key), () => spec.parse(raw[key]));
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
