// The global flags every command understands, and what they mean for output.
import type { Env } from '../context.js';
import { UsageError } from '../errors.js';
import { flag, flagName, ValueProblem, type FlagSpec } from './flags.js';

/** The global switches, declared once: program.ts makes their options, shell completion offers them. */
export const globalSwitches: ReadonlyArray<{ flags: string; help: string }> = [
  { flags: '--json', help: 'print JSON (one document)' },
  { flags: '--ndjson', help: 'print one JSON object per line (lists)' },
  { flags: '--csv', help: 'print CSV with a header (lists); cells starting with = + - @ get a leading quote' },
  { flags: '--csv-raw', help: 'with --csv: cells as they are, no leading quote (for tools, not spreadsheets)' },
  { flags: '--wide', help: 'tables: every value whole, even past the terminal width (piped output always is)' },
  { flags: '-q, --quiet', help: 'print only data and errors' },
  { flags: '--no-color', help: 'no colour (also NO_COLOR=1)' },
  { flags: '--no-input', help: 'never prompt; fail instead when something is missing' },
  { flags: '--sandbox', help: 'run against a local in-process sandbox whose state persists between runs' },
  { flags: '--debug', help: 'log each request, response status, timing and retry decision to stderr (key redacted)' },
];

/** The global flags that take a value, declared once: program.ts makes their options and help from these, the
 * command context reads them with readGlobal (validation and message included). */
export const globalValueFlags = {
  profile: flag.text('profile to use (env OUTREACH_PROFILE)', { value: 'name', short: '-p' }),
  baseUrl: flag.text('API base URL (env OUTREACH_BASE_URL)', { value: 'url' }),
  timeout: flag.seconds('give up on a request after this long', { default: 60 }),
  connectTimeout: flag.seconds('give up on a host that does not accept the connection after this long', {
    default: 5,
  }),
  waitTimeout: flag.seconds('give up waiting for the service to finish a job', { default: 1800 }),
  maxRetries: flag.int('retries for failed requests that are safe to retry', { min: 0, max: 20, default: 4 }),
  jq: flag.text('filter the JSON output with a jq expression, as `| jq -r EXPR` would (implies --json)', {
    value: 'expr',
  }),
  fields: flag.commaList('keep only these fields: JSON keys, or CSV and table columns by their CSV header name', {
    value: 'a,b',
  }),
  rateLimitWait: flag.seconds("how long one request waits out the service's 429 answers (honouring Retry-After)", {
    allowZero: true,
    defaultText: '30; 900 in imports and other long jobs',
  }),
};
type GlobalValueFlags = typeof globalValueFlags;

/** The long name of every global flag, from their declarations: for completion and each verb's help. */
export const globalFlagNames: readonly string[] = [
  ...globalSwitches.map(({ flags }) => flags.split(', ').pop()!),
  ...Object.keys(globalValueFlags).map(flagName),
];

/** Global options that take a value: their values are never mistaken for the group name. */
export const valueOptions = new Set(
  Object.entries(globalValueFlags as Record<string, FlagSpec<unknown>>).flatMap(([key, spec]) => [
    flagName(key),
    ...(spec.short ? [spec.short] : []),
  ]),
);

/** The global flags written before the group (`-p work --base-url URL`), to repeat in a command we suggest. */
export function globalPrefix(argv: string[]): string[] {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('-') || arg === '--') return argv.slice(0, i);
    if (valueOptions.has(arg)) i++;
  }
  return argv;
}

/** A global flag's value, checked: a bad one is a usage error naming the flag once. */
export function readGlobal<K extends keyof GlobalValueFlags>(
  flags: GlobalFlags,
  key: K,
): ReturnType<GlobalValueFlags[K]['parse']> {
  try {
    return globalValueFlags[key].parse(flags[key]) as ReturnType<GlobalValueFlags[K]['parse']>;
  } catch (error) {
    if (error instanceof ValueProblem) throw new UsageError(`${flagName(key)} ${error.message}`);
    throw error;
  }
}

export interface GlobalFlags {
  json?: boolean;
  ndjson?: boolean;
  csv?: boolean;
  csvRaw?: boolean;
  wide?: boolean;
  quiet?: boolean;
  color?: boolean;
  input?: boolean;
  profile?: string;
  baseUrl?: string;
  sandbox?: boolean;
  debug?: boolean;
  timeout?: string;
  connectTimeout?: string;
  waitTimeout?: string;
  maxRetries?: string;
  rateLimitWait?: string;
  jq?: string;
  fields?: string;
}

export type OutputFormat = 'table' | 'tsv' | 'json' | 'ndjson' | 'csv';

export interface OutputSettings {
  format: OutputFormat;
  /** Machine-readable output was asked for: no prompts, no progress, no hints. */
  machine: boolean;
  quiet: boolean;
  color: boolean;
  /** --csv-raw: CSV cells as they are, without the quote that keeps a spreadsheet from running them as formulas. */
  csvRaw: boolean;
  /** --wide: a terminal table is not fitted to the terminal's width. */
  wide: boolean;
  /** --fields a,b: only these fields of each record (render/fields.ts). */
  fields?: string[];
}

/** One output format a run: two asked for at once is a mistake, not a silent pick (exit 2). --jq is JSON. */
function checkOneFormat(flags: GlobalFlags): void {
  const asked = [
    flags.json && '--json',
    flags.jq !== undefined && '--jq',
    flags.ndjson && '--ndjson',
    flags.csv && '--csv',
  ].filter((name): name is string => Boolean(name));
  const clash = asked.filter((name) => name !== '--json' || !asked.includes('--jq'));
  if (clash.length > 1)
    throw new UsageError(
      `${clash.join(' and ')} cannot be used together: choose one output format`,
      'Give one of --json (or --jq), --ndjson and --csv.',
    );
}

/** --fields names at least one field, and is not given with --jq (which picks what it wants itself). */
function checkFields(flags: GlobalFlags): string[] | undefined {
  const fields = readGlobal(flags, 'fields');
  if (fields === undefined) return undefined;
  if (!fields.length) throw new UsageError('--fields needs at least one name', 'Example: --fields taskId,status');
  if (flags.jq !== undefined)
    throw new UsageError('--fields and --jq cannot be used together', 'Pick the fields in the jq expression instead.');
  return fields;
}

export function outputSettings(flags: GlobalFlags, env: Env, stdoutIsTTY: boolean): OutputSettings {
  checkOneFormat(flags);
  const fields = checkFields(flags);
  const format: OutputFormat =
    flags.json || flags.jq !== undefined
      ? 'json'
      : flags.ndjson
        ? 'ndjson'
        : flags.csv
          ? 'csv'
          : stdoutIsTTY
            ? 'table'
            : 'tsv';
  const color = stdoutIsTTY && flags.color !== false && !env.NO_COLOR && env.TERM !== 'dumb';
  return {
    format,
    machine: Boolean(flags.json || flags.ndjson || flags.csv || flags.jq !== undefined),
    quiet: Boolean(flags.quiet),
    color,
    csvRaw: Boolean(flags.csvRaw),
    wide: Boolean(flags.wide),
    fields,
  };
}
