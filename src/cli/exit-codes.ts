// The exit-code contract (DESIGN.md convention 6) and the one mapping from errors to codes.
import { ApiError, InputFileError, Interrupted, MissingKeyError, OutputClosed, UsageError } from '../errors.js';

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  partial: 3,
  auth: 4,
  rateLimited: 5,
  interrupted: 130,
  outputClosed: 141,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeTable: ReadonlyArray<[ExitCode, string]> = [
  [ExitCode.ok, 'Success: everything asked for was done.'],
  [
    ExitCode.failure,
    'API or network failure: the service answered with an error, could not be reached, or refused every item; or a ' +
      'file could not be written (a report beside a read-only input).',
  ],
  [
    ExitCode.usage,
    'Usage or invalid input: a bad flag, argument or input file, an unknown profile, an id the service does not know, ' +
      'nothing valid to send, or an action that needs --yes where no terminal can ask. Nothing was changed.',
  ],
  [
    ExitCode.partial,
    'Partial success: some items were done, others failed or were rejected; the error: line and a report file name ' +
      'them. Also a check that found problems, though it changed nothing: `domains check` (a domain fails), ' +
      '`schedules preview` (a warning), a --dry-run with rejected rows.',
  ],
  [ExitCode.auth, 'Authentication failed: no API key, or the service refused it. Run `outreach auth login`.'],
  [
    ExitCode.rateLimited,
    'Rate-limited: the service kept answering 429 for longer than --rate-limit-wait. Wait and run again.',
  ],
  [ExitCode.interrupted, 'Interrupted (Ctrl-C or SIGTERM). Output files were not left half-written.'],
  [
    ExitCode.outputClosed,
    'Output closed: the reader of stdout went away (as with `| head`), so nothing more was sent.',
  ],
];

/** Items sent one by one: none failed (0), all failed (1: nothing was done), or some of them (3: partial success). */
export function exitCodeForItems(failed: number, total: number): ExitCode {
  if (!failed) return ExitCode.ok;
  return failed === total ? ExitCode.failure : ExitCode.partial;
}

export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof OutputClosed) return error.failed ? ExitCode.failure : ExitCode.outputClosed;
  if (error instanceof Interrupted) return ExitCode.interrupted;
  if (error instanceof UsageError || error instanceof InputFileError) return ExitCode.usage;
  if (error instanceof MissingKeyError) return ExitCode.auth;
  if (error instanceof ApiError) {
    if (error.failure === 'auth') return ExitCode.auth;
    if (error.failure === 'rate-limited') return ExitCode.rateLimited;
  }
  return ExitCode.failure;
}
