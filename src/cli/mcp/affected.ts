// How many records a call would touch, for --max-affected: what its preview says (as its verb counts it: the new
// values a DNC sync would add), or selects (the tasks a bulk action would skip, the rows an import would send), else
// the ids or values it is given (arguments, repeated flags, and the lines of its input file, counted without keeping
// them), else one.
import { closeSync, openSync, readSync } from 'node:fs';
import type { FlagSpec } from '../flags.js';
import { isPathArg, isPathFlag } from './paths.js';
import { toolArgs, toolFlags } from './tool-schema.js';
import type { Tool } from './tools.js';

/** Lines of a file that are not empty, read a piece at a time (the file may hold millions). */
function linesOf(path: string): number {
  const buffer = Buffer.allocUnsafe(1 << 16);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return 0; // the command says what is wrong with it
  }
  let lines = 0;
  let last = 10;
  try {
    for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer))
      for (let i = 0; i < read; i++) {
        const byte = buffer[i]!;
        if (byte === 10 && last !== 10) lines++;
        last = byte;
      }
  } finally {
    closeSync(fd);
  }
  return last === 10 ? lines : lines + 1;
}

export function affected(tool: Tool, args: Record<string, unknown>, preview?: Record<string, unknown>): number {
  const { agent } = tool.verb;
  const counted = preview && 'affected' in agent ? agent.affected?.(preview) : undefined;
  if (counted !== undefined && Number.isSafeInteger(counted) && counted >= 0) return Math.max(counted, 1);
  if (Array.isArray(preview?.items)) return preview.items.length;
  // A preview too large for an answer keeps its count.
  if (preview?.truncated === true && typeof preview.count === 'number') return preview.count;
  if (typeof preview?.total === 'number')
    return preview.total - (typeof preview.rejected === 'number' ? preview.rejected : 0);
  let count = 0;
  for (const spec of toolArgs(tool.verb))
    if (spec.variadic && !isPathArg(spec) && Array.isArray(args[spec.name]))
      count += (args[spec.name] as unknown[]).length;
  // Every value of a repeatable flag (lead ids, LinkedIn URLs, mailboxes) is a record it touches.
  for (const [key, spec] of toolFlags(tool.verb) as Array<[string, FlagSpec<unknown>]>)
    if (spec.kind === 'list' && Array.isArray(args[key])) count += (args[key] as unknown[]).length;
  // Every line of an input file, a CSV's header too: never fewer than the call touches.
  for (const [key, spec] of toolFlags(tool.verb) as Array<[string, FlagSpec<unknown>]>)
    if (key === 'file' && isPathFlag(spec) && typeof args[key] === 'string') count += linesOf(args[key]);
  return Math.max(count, 1);
}
