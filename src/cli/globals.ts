// The global flags every command understands, and what they mean for output.
import type { Env } from '../context.js';

export interface GlobalFlags {
  json?: boolean;
  ndjson?: boolean;
  csv?: boolean;
  quiet?: boolean;
  color?: boolean;
  input?: boolean;
  profile?: string;
  baseUrl?: string;
  sandbox?: boolean;
  debug?: boolean;
  timeout?: string;
  waitTimeout?: string;
  maxRetries?: string;
  rateLimitWait?: string;
}

export type OutputFormat = 'table' | 'tsv' | 'json' | 'ndjson' | 'csv';

export interface OutputSettings {
  format: OutputFormat;
  /** Machine-readable output was asked for: no prompts, no progress, no hints. */
  machine: boolean;
  quiet: boolean;
  color: boolean;
}

export function outputSettings(flags: GlobalFlags, env: Env, stdoutIsTTY: boolean): OutputSettings {
  const format: OutputFormat = flags.json
    ? 'json'
    : flags.ndjson
      ? 'ndjson'
      : flags.csv
        ? 'csv'
        : stdoutIsTTY
          ? 'table'
          : 'tsv';
  const color = stdoutIsTTY && flags.color !== false && !env.NO_COLOR && env.TERM !== 'dumb';
  return { format, machine: Boolean(flags.json || flags.ndjson || flags.csv), quiet: Boolean(flags.quiet), color };
}
