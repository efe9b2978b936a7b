// The tools of `outreach mcp`, one a verb, made from the verb declarations: never a list kept by hand. A tool's name
// is its command's words joined by underscores (`tasks_bulk_skip`), its description the verb's help and example,
// its annotations and guard what the verb declares it does (AgentEffect). Verbs declared leftOut have no tool.
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { FlagSpec } from '../flags.js';
import type { FoundVerb } from '../verb-tree.js';
import type { AgentEffect, AnyVerb } from '../verb.js';
import { forAgents, inputSchema } from './tool-schema.js';

export interface Tool {
  name: string;
  /** The command's words: ['tasks', 'bulk-skip']. */
  path: string[];
  verb: AnyVerb;
  description: string;
  annotations: ToolAnnotations;
  /** Whether a call with these arguments acts only on a second call that carries the first one's token; absent for
   * a tool that is never guarded. */
  guarded?: (args: Record<string, unknown>) => boolean;
  inputSchema: ReturnType<typeof inputSchema>;
}

export interface LeftOut {
  command: string;
  why: string;
}

export const toolName = (path: string[]): string => path.join('_').replace(/-/g, '_');

/** Whether a verb changes nothing, so `--read-only` keeps its tool. */
export const readsOnly = (verb: AnyVerb): boolean => verb.agent.kind === 'read';

function annotations(effect: Exclude<AgentEffect, { kind: 'leftOut' }>, title: string): ToolAnnotations {
  const read = effect.kind === 'read';
  return {
    title,
    readOnlyHint: read,
    destructiveHint:
      effect.kind === 'destructive' || effect.kind === 'paid' || Boolean(effect.kind === 'write' && effect.guardedWhen),
    idempotentHint: read || effect.idempotent,
    // Every tool but the local ones reaches the account's service.
    openWorldHint: !('local' in effect && effect.local),
  };
}

/** A verb that asks a person first (it has --yes) asks an agent too: the guard. */
function guardOf(verb: AnyVerb): ((args: Record<string, unknown>) => boolean) | undefined {
  const effect = verb.agent;
  const asksFirst = 'yes' in ((verb.flags ?? {}) as Record<string, FlagSpec<unknown>>);
  if (effect.kind === 'destructive' || effect.kind === 'paid' || asksFirst) return () => true;
  if (effect.kind === 'write' && effect.guardedWhen) {
    const when = Object.entries(effect.guardedWhen);
    return (args) => when.some(([key, values]) => values.includes(String(args[key])));
  }
  return undefined;
}

function describeVerb(found: FoundVerb): string {
  // The schema lists the arguments; the help and the headline example say the rest.
  const words = found.path.join(' ');
  return forAgents(
    [`${found.summary} (outreach ${words}).`, found.verb.description ?? '', `Example: outreach ${found.example}`]
      .filter(Boolean)
      .join('\n'),
  );
}

export function toolsFrom(verbs: FoundVerb[]): { tools: Tool[]; leftOut: LeftOut[] } {
  const tools: Tool[] = [];
  const leftOut: LeftOut[] = [];
  for (const found of verbs) {
    const effect = found.verb.agent;
    if (effect.kind === 'leftOut') {
      leftOut.push({ command: `outreach ${found.path.join(' ')}`, why: effect.why });
      continue;
    }
    const guarded = guardOf(found.verb);
    tools.push({
      name: toolName(found.path),
      path: found.path,
      verb: found.verb,
      description: describeVerb(found),
      annotations: annotations(effect, found.summary),
      guarded,
      inputSchema: inputSchema(found.verb, guarded !== undefined),
    });
  }
  return { tools, leftOut };
}
