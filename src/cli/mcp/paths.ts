// Files an agent names are confined to one folder: the server's --files-dir (the folder it started in by default).
// A path is resolved there, and refused when it leaves it (also through a symbolic link), names stdin or stdout (the
// protocol's), or lies in the config folder (keys) or a system tree (/proc, /dev, /sys): a tool that reads or writes
// a file can then neither send a key as data nor overwrite a file elsewhere.
import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { ArgSpec, FlagSpec } from '../flags.js';
import type { AnyVerb } from '../verb.js';
import { toolArgs, toolFlags } from './tool-schema.js';

/** The value names the declarations give a file or folder: what makes a flag a path. */
const pathValueNames = new Set(['file', 'path', 'file.json', 'journal']);

export const isPathFlag = (spec: FlagSpec<unknown>): boolean =>
  spec.kind !== 'bool' && spec.kind !== 'negatable' && pathValueNames.has(spec.valueName ?? '');
export const isPathArg = (spec: ArgSpec<unknown>): boolean => spec.name === 'file';

const systemTrees = ['/proc', '/dev', '/sys'];

const inside = (folder: string, path: string): boolean => {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The real place of `path`: its deepest existing ancestor resolved through links, the rest as given. */
function realPlace(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  const real = realpathSync(existing);
  return existing === path ? real : resolve(real, relative(existing, path));
}

export interface Confinement {
  root: string;
  configDir: string;
}

/** The path to give the command, or why it is refused. */
function confine(value: string, where: Confinement): { path: string } | { refused: string } {
  if (value === '-') return { refused: 'stdin and stdout carry the protocol: give a file' };
  const path = resolve(where.root, value);
  const real = realPlace(path);
  const root = realPlace(where.root);
  if (!inside(root, real)) return { refused: `${value} is outside the folder this server works in (${root})` };
  const forbidden = [realPlace(where.configDir), ...systemTrees].find((tree) => inside(tree, real));
  if (forbidden) return { refused: `${value} is in ${forbidden}, which no tool reads or writes` };
  return { path };
}

/** The names of a verb's arguments and flags that are files. */
export function pathNames(verb: AnyVerb): string[] {
  return [
    ...toolFlags(verb)
      .filter(([, spec]) => isPathFlag(spec))
      .map(([key]) => key),
    ...toolArgs(verb)
      .filter(isPathArg)
      .map((spec) => spec.name),
  ];
}

/** The call's arguments with every path confined, or the first refusal, naming the argument. */
export function confinedArgs(
  verb: AnyVerb,
  args: Record<string, unknown>,
  where: Confinement,
): { args: Record<string, unknown> } | { refused: string } {
  const out = { ...args };
  for (const name of pathNames(verb)) {
    const value = out[name];
    if (value === undefined || typeof value === 'boolean') continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    const paths: string[] = [];
    for (const one of values) {
      const confined = confine(one, where);
      if ('refused' in confined) return { refused: `${name}: ${confined.refused}` };
      paths.push(confined.path);
    }
    out[name] = Array.isArray(value) ? paths : paths[0];
  }
  return { args: out };
}
