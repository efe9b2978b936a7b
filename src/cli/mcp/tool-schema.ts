// A tool's input schema, made from its verb's declarations: each argument and flag under its camelCase name, typed
// (text, number, switch, list), with its fixed values, bounds and whether it is required. The values are checked here
// for their shape only; the verb checks their meaning exactly as it does on the command line, with the same message.
import { z } from 'zod';
import { flagName, type ArgSpec, type FlagSpec } from '../flags.js';
import type { AnyVerb } from '../verb.js';

/** Flags a tool does not take: the guard's confirmation replaces --yes; the server runs without a terminal. */
const notForAgents = new Set(['yes', 'interactive', 'input']);

/** Whether run() cannot do without the flag: its parser refuses no value. */
export function isRequiredFlag(spec: FlagSpec<unknown>): boolean {
  try {
    spec.parse(undefined);
    return false;
  } catch {
    return true;
  }
}

const describe = <T extends z.ZodType>(schema: T, help: string | undefined): T =>
  help ? schema.describe(forAgents(help)) : schema;

/** A command's words as an agent reads them: a tool has no stdin (a path of `-` is refused), so it is not offered. */
export const forAgents = (text: string): string =>
  text.replace(/\s*\((?:or\s+)?-\s+for\s+stdin\)|[,;]\s*(?:or\s+)?-\s+for\s+stdin|\s+or\s+stdin(?:\s*\(-\))?/g, '');

function flagSchema(key: string, spec: FlagSpec<unknown>): z.ZodType {
  const help = [spec.help, spec.defaultText && spec.defaultText !== 'required' ? `default ${spec.defaultText}` : '']
    .filter(Boolean)
    .join('; ');
  if (spec.kind === 'bool') return describe(z.boolean(), help);
  if (spec.kind === 'negatable') {
    // Both meanings, and which holds when the flag is left out (an agent must not read the DNC check as off).
    const fallback = spec.parse(undefined);
    const when = typeof fallback === 'boolean' ? ` (default ${fallback})` : '';
    return describe(z.boolean(), `true: ${spec.help}; false: ${spec.defaultText}${when}`);
  }
  const one = valueSchema(spec);
  if (spec.kind === 'list') {
    const list = z.array(one);
    return describe(isRequiredFlag(spec) ? list.min(1) : list, `${help} (${flagName(key)}, repeatable)`);
  }
  // A flag whose value may be left out (--resume [journal]) takes true for the bare flag.
  if (spec.kind === 'optional-value') return describe(z.union([z.literal(true), one]), `${help} (${flagName(key)})`);
  return describe(one, `${help} (${flagName(key)})`);
}

function valueSchema(spec: FlagSpec<unknown>): z.ZodType {
  if (spec.choices?.length) return z.enum(spec.choices as [string, ...string[]]);
  if (spec.type) {
    let number = spec.type === 'integer' ? z.int() : z.number();
    if (spec.range?.min !== undefined)
      number = spec.range.aboveMin ? number.gt(spec.range.min) : number.min(spec.range.min);
    if (spec.range?.max !== undefined) number = number.max(spec.range.max);
    return number;
  }
  return z.string();
}

function argSchema(spec: ArgSpec<unknown>): z.ZodType {
  const one = spec.choices?.length ? z.enum(spec.choices as [string, ...string[]]) : z.string();
  const schema = spec.variadic ? (spec.optional ? z.array(one) : z.array(one).min(1)) : one;
  return describe(schema, spec.help ?? `<${spec.name}>`);
}

/** The flags a tool takes, by key. */
export function toolFlags(verb: AnyVerb): Array<[string, FlagSpec<unknown>]> {
  return Object.entries((verb.flags ?? {}) as Record<string, FlagSpec<unknown>>).filter(
    ([key, spec]) => !spec.hidden && !notForAgents.has(key),
  );
}

export function toolArgs(verb: AnyVerb): ArgSpec<unknown>[] {
  return [...((verb.args ?? []) as ArgSpec<unknown>[])];
}

/** The tool's input: its verb's arguments and flags, and `confirm` when it acts only on a second call. */
export function inputSchema(verb: AnyVerb, guarded: boolean): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of toolArgs(verb)) shape[spec.name] = spec.optional ? argSchema(spec).optional() : argSchema(spec);
  for (const [key, spec] of toolFlags(verb)) {
    const schema = flagSchema(key, spec);
    shape[key] = isRequiredFlag(spec) ? schema : schema.optional();
  }
  // Small answers: a tool that reads may be asked for some fields of each item, and (when its command has no
  // --limit) for the first items only.
  if (verb.agent.kind === 'read') {
    shape.fields = z
      .array(z.string())
      .min(1)
      .optional()
      .describe('keep only these fields of each item (of the answer, when it is not a list)');
    if (!('limit' in shape)) shape.limit = z.int().min(1).optional().describe('keep only the first items of a list');
  }
  if (guarded)
    shape.confirm = z
      .string()
      .optional()
      .describe('the token a first call returned with its preview: give it, with the same arguments, to act');
  return z.strictObject(shape);
}
