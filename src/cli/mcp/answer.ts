// A tool's answer from its run: the command's JSON as structured content with a JSON text copy, or its `error:` and
// `hint:` with the exit code. No answer is larger than maxAnswerChars: a larger result is written whole to a file
// (NDJSON for a list, JSON otherwise) and the answer is its size, its first items and a resource_link to the file.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { mkdirSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { openExclusive } from '../../io/safe-file.js';
import { tempName } from '../../jobs/temp-files.js';
import type { Invocation } from './invoke.js';

/** The most text an answer carries (its JSON copy; the structured content is the same data). */
export const maxAnswerChars = 64 * 1024;
/** Items of a long list shown in its answer beside the link to all of them. */
const firstItems = 20;

export type Answer =
  | { isError: false; result: CallToolResult; text: string; structured: Record<string, unknown> }
  | { isError: true; result: CallToolResult; failure: { exitCode: number; error: string } };

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
    return { text };
  }
}

export function answerOf(run: Invocation, configDir: string, tool: string): Answer {
  let structured = structuredOf(run.stdout);
  let text = JSON.stringify(structured);
  const link: CallToolResult['content'] = [];
  if (text.length > maxAnswerChars) {
    const file = writeWhole(configDir, tool, structured);
    const items = Array.isArray(structured.items) ? structured.items : undefined;
    structured = {
      truncated: true,
      file,
      bytes: Buffer.byteLength(text),
      ...(items ? { count: items.length, first: items.slice(0, firstItems) } : {}),
      note: `The whole result is in ${file}${items ? ' (NDJSON, one item a line)' : ''}.`,
    };
    text = JSON.stringify(structured);
    link.push({
      type: 'resource_link',
      uri: `file://${file}`,
      name: file.split('/').pop()!,
      mimeType: items ? 'application/x-ndjson' : 'application/json',
    });
  }
  return {
    isError: false,
    text,
    structured,
    result: { content: [{ type: 'text', text }, ...link], structuredContent: structured },
  };
}

export function failureOf(run: Invocation): Answer {
  const error = run.stderr.trim() || `exit ${run.code}`;
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

/** Writes the whole result to a new file of its own (0600, never through a link) under <config>/mcp-results. */
function writeWhole(configDir: string, tool: string, structured: Record<string, unknown>): string {
  const dir = join(configDir, 'mcp-results');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
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
