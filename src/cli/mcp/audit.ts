// The audit log of `outreach mcp`: every call of a tool that may change something (its preview, its act, or its
// refusal) is a line of audit.ndjson in the config folder: when, which tool, its arguments with secret-looking values
// masked, and the outcome. `outreach mcp audit` reads it back as data: each line checked, never trusted as text.
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readOwnFile } from '../../io/safe-file.js';

export interface AuditEntry {
  time: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** preview: a guard's first call; done/failed: it ran, with its exit code; refused: the guard refused it;
   * interrupted: the client cancelled it while it ran, so what it did is not known. */
  outcome: 'preview' | 'done' | 'failed' | 'refused' | 'interrupted';
  exitCode?: number;
  error?: string;
}

const auditPath = (configDir: string): string => join(configDir, 'audit.ndjson');

/** Names of arguments whose values are never written (a webhook's headers carry credentials). */
const secretName = /key|secret|token|password|authori[sz]ation|header|confirm/i;

/** A URL's path and query may carry a credential (a Slack hook, ?token=): only its origin is written. */
function maskedUrl(value: string): string | undefined {
  if (!/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.pathname === '/' && !url.search && !url.username ? url.origin : `${url.origin}/***`;
  } catch {
    return '***';
  }
}

/** The value as the log keeps it; what was masked is added to `hidden`. */
function masked(value: unknown, name: string, hidden: string[]): unknown {
  if (Array.isArray(value)) return value.map((one) => masked(one, name, hidden));
  if (typeof value !== 'string') return secretName.test(name) && value !== undefined ? '***' : value;
  const url = maskedUrl(value);
  const secret = secretName.test(name) || secretName.test(value.split(/[=:\s]/)[0] ?? '');
  if (secret || url !== undefined) hidden.push(value, ...value.split(/[=:\s]+/).filter((part) => part.length >= 6));
  return secret ? '***' : (url ?? value);
}

/** Appends one entry (the folder made 0700 and the file 0600 when new, never written through a link). Returns why it
 * could not, rather than throwing: the log failing never changes what a tool answers. */
export function appendAudit(configDir: string, entry: AuditEntry): string | undefined {
  const hidden: string[] = [];
  const args = Object.fromEntries(Object.entries(entry.arguments).map(([name, v]) => [name, masked(v, name, hidden)]));
  // The command's error may repeat what was masked in the arguments.
  const error = entry.error && hidden.reduce((text, secret) => text.split(secret).join('***'), entry.error);
  const line = `${JSON.stringify({ ...entry, arguments: args, ...(error === undefined ? {} : { error }) })}\n`;
  try {
    mkdirSync(configDir, { recursive: true, mode: 0o700 });
    const fd = openSync(
      auditPath(configDir),
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** How much of the end of the log is read: the latest entries, however long it has grown. */
const tailBytes = 4 * 1024 * 1024;

/** The latest entries, newest last; a line that is not an entry is reported as such rather than shown. */
export function readAudit(configDir: string): { entries: AuditEntry[]; unreadable: number } {
  const text = readOwnFile(auditPath(configDir), 'audit log', undefined, tailBytes) ?? '';
  const entries: AuditEntry[] = [];
  let unreadable = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const entry = parseEntry(line);
    if (entry) entries.push(entry);
    else unreadable++;
  }
  return { entries, unreadable };
}

const outcomes = new Set(['preview', 'done', 'failed', 'refused', 'interrupted']);

function parseEntry(line: string): AuditEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const entry = value as Partial<AuditEntry>;
  const ok =
    typeof entry.time === 'string' &&
    typeof entry.tool === 'string' &&
    typeof entry.outcome === 'string' &&
    outcomes.has(entry.outcome) &&
    entry.arguments !== null &&
    typeof entry.arguments === 'object' &&
    (entry.exitCode === undefined || typeof entry.exitCode === 'number') &&
    (entry.error === undefined || typeof entry.error === 'string');
  return ok ? (entry as AuditEntry) : undefined;
}
