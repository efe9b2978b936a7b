// The audit log of `outreach mcp`: every call of a tool that may change something (its preview, its act, or its
// refusal) is a line of audit.ndjson in the config folder: when, which tool, its arguments with secret-looking values
// masked, and the outcome. `outreach mcp audit` reads it back as data: each line checked, never trusted as text.
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readOwnFile } from '../../io/safe-file.js';

export interface AuditEntry {
  time: string;
  tool: string;
  arguments: Record<string, unknown>;
  /** preview: a guard's first call; done/failed: it ran, with its exit code; refused: the guard refused it. */
  outcome: 'preview' | 'done' | 'failed' | 'refused';
  exitCode?: number;
  error?: string;
}

export const auditPath = (configDir: string): string => join(configDir, 'audit.ndjson');

/** Names of arguments whose values are never written (a webhook's headers carry credentials). */
const secretName = /key|secret|token|password|authori[sz]ation|header|confirm/i;

function masked(value: unknown, name: string): unknown {
  if (secretName.test(name)) return '***';
  if (Array.isArray(value)) return value.map((one) => masked(one, name));
  if (typeof value === 'string' && secretName.test(value.split(/[=:]/)[0] ?? '')) return '***';
  return value;
}

/** Appends one entry (the file is made 0600, and never written through a link). */
export function appendAudit(configDir: string, entry: AuditEntry): void {
  const args = Object.fromEntries(Object.entries(entry.arguments).map(([name, v]) => [name, masked(v, name)]));
  const line = `${JSON.stringify({ ...entry, arguments: args })}\n`;
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
}

/** The entries, newest last; a line that is not an entry is reported as such rather than shown. */
export function readAudit(configDir: string): { entries: AuditEntry[]; unreadable: number } {
  const text = readOwnFile(auditPath(configDir), 'audit log') ?? '';
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

const outcomes = new Set(['preview', 'done', 'failed', 'refused']);

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
