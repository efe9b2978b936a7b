// A tool's answer from its run: the command's JSON as structured content with a JSON text copy, or its `error:` and
// `hint:` with the exit code. Exit 3 (some items failed) is an answer, not a failure: its JSON comes with the warning,
// so an agent does not repeat what was done. No answer is larger than maxAnswerChars: a larger result is written whole
// to a file (NDJSON for a list, JSON otherwise) and the answer is its size, its first items and a resource_link.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openExclusive } from '../../io/safe-file.js';
import { pickFields } from '../render/fields.js';
import { tempName } from '../../jobs/temp-files.js';
import type { Invocation } from './invoke.js';

/** The most text an answer carries (its JSON copy; the structured content is the same data). */
export const maxAnswerChars = 64 * 1024;
/** The most of a command's error or warning text an answer repeats. */
const maxMessageChars = 4096;
/** The share of an answer the first items of a long list may take. */
const firstItemsChars = 32 * 1024;

export type Answer =
  | {
      isError: false;
      result: CallToolResult;
      text: string;
      structured: Record<string, unknown>;
      /** A digest of the command's whole output: what a preview's token is bound to, however the answer was cut. */
      digest: string;
    }
  | { isError: true; result: CallToolResult; failure: { exitCode: number; error: string } };

export const cut = (text: string, max = maxMessageChars): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;

/** The command's JSON: an object as it is, a list as {items}, anything else as {text}. */
function structuredOf(stdout: string): Record<string, unknown> {
  const text = stdout.trim();
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (Array.isArray(value)) return { items: value };
    if (value && typeof value === 'object') return value as Record<string, unknown>;
    return { value };
  } catch {
    return { text: cut(text) };
  }
}

/** What a call asked of its answer's shape: some fields of each item, the first items. */
export interface Shape {
  fields?: string[];
  limit?: number;
}

function shaped(structured: Record<string, unknown>, shape: Shape): Record<string, unknown> {
  const { fields, limit } = shape;
  if (!Array.isArray(structured.items))
    return fields ? (pickFields(structured, fields) as Record<string, unknown>) : structured;
  let items = structured.items as unknown[];
  if (limit !== undefined) items = items.slice(0, limit);
  if (fields) items = items.map((item) => pickFields(item, fields));
  return { ...structured, items };
}

/** The answer of a run: its JSON on exit 0 and 3 (with the warning), its error otherwise. */
export function answerOf(run: Invocation, configDir: string, tool: string, shape: Shape = {}): Answer {
  if (run.cut)
    return failureOf({
      ...run,
      code: 1,
      stderr:
        'error: the result is larger than a tool answers with\n' +
        'hint: Narrow it (limit, filters), or run the command itself with --ndjson -o FILE.',
    });
  if (run.code !== 0 && run.code !== 3) return failureOf(run);
  let structured = shaped(structuredOf(run.stdout), shape);
  if (run.code === 3) structured = { ...structured, exitCode: 3, warning: cut(run.stderr.trim()) };
  let text = JSON.stringify(structured);
  const link: CallToolResult['content'] = [];
  if (text.length > maxAnswerChars) {
    const file = writeWhole(configDir, tool, structured);
    const items = Array.isArray(structured.items) ? structured.items : undefined;
    structured = {
      truncated: true,
      file,
      bytes: Buffer.byteLength(text),
      ...(items ? { count: items.length, first: firstOf(items) } : {}),
      note: `The whole result is in ${file}${items ? ' (NDJSON, one item a line)' : ''}.`,
    };
    text = JSON.stringify(structured);
    const mimeType = items ? 'application/x-ndjson' : 'application/json';
    link.push({ type: 'resource_link', uri: pathToFileURL(file).href, name: file.split('/').pop()!, mimeType });
  }
  const result: CallToolResult = { content: [{ type: 'text', text }, ...link], structuredContent: structured };
  const digest = createHash('sha256').update(run.stdout).digest('base64url');
  return { isError: false, text, structured, result, digest };
}

/** As many of the first items as fit in their share of an answer. */
function firstOf(items: unknown[]): unknown[] {
  const first: unknown[] = [];
  let chars = 0;
  for (const item of items) {
    chars += JSON.stringify(item).length + 1;
    if (chars > firstItemsChars) break;
    first.push(item);
  }
  return first;
}

function failureOf(run: Pick<Invocation, 'code' | 'stderr'>): Answer {
  const error = cut(run.stderr.trim() || `exit ${run.code}`);
  const structured = { exitCode: run.code, error };
  return {
    isError: true,
    failure: structured,
    result: {
      isError: true,
      content: [{ type: 'text', text: `${error}\n(exit ${run.code})` }],
      structuredContent: structured,
    },
  };
}

/** Result files kept: the oldest go as new ones come. */
const keptResults = 50;

/** Makes room for one more result file: the oldest go past the number kept. */
function pruneResults(dir: string): void {
  const files = readdirSync(dir)
    .map((name) => ({ path: join(dir, name), at: lstatSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => a.at - b.at);
  for (const file of files.slice(0, Math.max(0, files.length - keptResults + 1))) rmSync(file.path, { force: true });
}

/** Writes the whole result to a new file of its own (0600, never through a link) under <config>/mcp-results. */
function writeWhole(configDir: string, tool: string, structured: Record<string, unknown>): string {
  const dir = join(configDir, 'mcp-results');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  pruneResults(dir);
  const items = Array.isArray(structured.items) ? structured.items : undefined;
  const path = join(dir, tempName(tool, items ? '.ndjson' : '.json'));
  const fd = openExclusive(path);
  try {
    if (items) for (const item of items) writeSync(fd, `${JSON.stringify(item)}\n`);
    else writeSync(fd, JSON.stringify(structured));
  } finally {
    closeSync(fd);
  }
  return path;
}
