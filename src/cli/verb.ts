// A verb: its flags, its options schema and its run function (DESIGN.md convention 1).
// defineVerb() wires one into commander: raw flags -> zod -> typed options -> run(ctx, opts).
import type { Command } from 'commander';
import type { z } from 'zod';
import type { CommandContext } from './command-context.js';
import { UsageError } from '../errors.js';
import { type ExitCode } from './exit-codes.js';

export interface Verb<O> {
  /** Name plus commander argument syntax, e.g. `import-status <requestId>`. */
  usage: string;
  summary: string;
  /** Extra help paragraphs shown under the usage. */
  description?: string;
  /** Shown in --help; at least one. Each is a full command line without the leading `outreach`. */
  examples: string[];
  /** Adds the verb's own options. */
  configure?(cmd: Command): void;
  /** Validates `{ args, ...flags }` into the options run() receives; issues name the flag or argument. */
  schema: z.ZodType<O>;
  run(ctx: CommandContext, opts: O): Promise<ExitCode | void>;
}

/** Commander argument parser for options that may be given more than once. */
export const repeatable = (value: string, previous: string[] = []): string[] => [...previous, value];

export function defineVerb<O>(verb: Verb<O>): Verb<O> {
  return verb;
}

/** How the CLI treats a parsed verb: run it, or (in parse tests) hand back the options. */
export type VerbInvoker = (verb: Verb<unknown>, command: Command, options: unknown) => Promise<void>;

export function formatExamples(examples: string[]): string {
  return `\nExamples:\n${examples.map((example) => `  $ outreach ${example}`).join('\n')}\n`;
}

/** The first example of each verb added under a command, for that command's own --help. */
const examplesUnder = new WeakMap<Command, string[]>();

export function addVerb<O>(parent: Command, verb: Verb<O>, invoke: VerbInvoker): Command {
  const first = verb.examples[0];
  if (first) examplesUnder.set(parent, [...(examplesUnder.get(parent) ?? []), first]);
  return attachVerb(parent.command(verb.usage), verb, invoke);
}

/** Gives a group (and its nested groups) an Examples section made of its verbs' first examples. */
export function addGroupExamples(group: Command): void {
  for (const child of group.commands) addGroupExamples(child);
  const examples = examplesUnder.get(group);
  if (examples?.length) group.addHelpText('after', formatExamples(examples));
}

/** Makes an existing command (a group like `api` that is itself the verb) run this verb. */
export function attachVerb<O>(cmd: Command, verb: Verb<O>, invoke: VerbInvoker): Command {
  cmd.summary(verb.summary).description(verb.description ? `${verb.summary}\n\n${verb.description}` : verb.summary);
  verb.configure?.(cmd);
  cmd.addHelpText('after', formatExamples(verb.examples));
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const options = parseVerbOptions(verb, command);
    await invoke(verb as Verb<unknown>, command, options);
  });
  return cmd;
}

function parseVerbOptions<O>(verb: Verb<O>, command: Command): O {
  const raw = { args: command.processedArgs, ...command.opts() };
  const result = verb.schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new UsageError(
    `${describePath(command, issue.path)}: ${issue.message}`,
    `See \`outreach ${commandPath(command)} --help\`.`,
  );
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Names a schema path the way the user typed it: `--page-size`, or the argument's name. */
function describePath(command: Command, path: PropertyKey[]): string {
  const [head, index] = path;
  if (head === 'args') {
    const arg = command.registeredArguments[typeof index === 'number' ? index : 0];
    return arg ? `<${arg.name()}>` : 'argument';
  }
  const option = command.options.find((o) => o.attributeName() === head);
  if (option) return option.long ?? option.flags;
  return path.length ? String(head) : 'options';
}
