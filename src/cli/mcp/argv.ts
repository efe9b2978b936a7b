// A tool call's arguments as the command line of its verb: the positional arguments, then the flags as `--name=value`
// (a value may start with a dash); when a positional value starts with a dash, the flags first, then `--` and them.
import { flagName, type FlagSpec } from '../flags.js';
import { toolArgs, toolFlags } from './tool-schema.js';
import type { Tool } from './tools.js';

/** `extra` flags (--dry-run, --yes) go with the tool's own, before the positional arguments. */
export function argvOf(tool: Tool, args: Record<string, unknown>, extra: string[] = []): string[] {
  const flags: string[] = [...extra];
  for (const [key, spec] of toolFlags(tool.verb)) {
    const value = args[key];
    if (value === undefined) continue;
    flags.push(...flagWords(key, spec, value));
  }
  const positional = toolArgs(tool.verb).flatMap((spec) => {
    const value = args[spec.name];
    if (value === undefined) return [];
    return Array.isArray(value) ? value.map(String) : [String(value)];
  });
  // `--` only when a value needs it: the resume line a command prints repeats this one, flags after its positionals.
  if (positional.some((value) => value.startsWith('-'))) return [...tool.path, ...flags, '--', ...positional];
  return [...tool.path, ...positional, ...flags];
}

function flagWords(key: string, spec: FlagSpec<unknown>, value: unknown): string[] {
  const name = flagName(key);
  if (spec.kind === 'bool') return value === true ? [name] : [];
  if (spec.kind === 'optional-value' && value === true) return [name];
  if (spec.kind === 'negatable') return [value === false ? `--no-${name.slice(2)}` : name];
  if (Array.isArray(value)) return value.map((one) => `${name}=${String(one)}`);
  return [`${name}=${String(value)}`];
}
