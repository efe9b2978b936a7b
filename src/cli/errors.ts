// The error taxonomy and the exit-code contract (DESIGN.md convention 6). One place maps errors to exit codes.

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  partial: 3,
  auth: 4,
  rateLimited: 5,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

export const exitCodeTable: ReadonlyArray<[ExitCode, string]> = [
  [ExitCode.ok, 'Success: everything asked for was done.'],
  [ExitCode.failure, 'API or network failure: the service answered with an error, or could not be reached.'],
  [ExitCode.usage, 'Usage or invalid input: a bad flag, argument or input file. Nothing was sent.'],
  [ExitCode.partial, 'Partial success: the job ran but some rows or tasks failed; a report file names them.'],
  [ExitCode.auth, 'Authentication failed: no API key, or the service refused it. Run `outreach auth login`.'],
  [ExitCode.rateLimited, 'Rate-limited: the service kept answering 429 after every retry. Wait and run again.'],
  [ExitCode.interrupted, 'Interrupted (Ctrl-C or SIGTERM). Output files were not left half-written.'],
];

/** Base class: an error the CLI reports as one line (plus an optional hint) and a specific exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag, argument or input: exit 2, nothing was sent. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string) {
    super(message, ExitCode.usage, hint);
  }
}

export class InterruptError extends CliError {
  constructor(message = 'interrupted') {
    super(message, ExitCode.interrupted);
  }
}

export interface ApiErrorDetails {
  status: number;
  code?: number;
  type?: string;
  method: string;
  path: string;
}

/** The service answered with an error body, or a non-2xx status: exit 1. */
export class ApiError extends CliError {
  constructor(
    message: string,
    readonly details: ApiErrorDetails,
    exitCode: ExitCode = ExitCode.failure,
    hint?: string,
  ) {
    super(message, exitCode, hint);
  }
}

export class AuthError extends ApiError {
  constructor(message: string, details: ApiErrorDetails) {
    super(
      message,
      details,
      ExitCode.auth,
      'Check the key with `outreach auth status`, or store a new one with `outreach auth login`.',
    );
  }
}

export class RateLimitError extends ApiError {
  constructor(message: string, details: ApiErrorDetails) {
    super(message, details, ExitCode.rateLimited, 'Wait a minute and run the command again, or lower --concurrency.');
  }
}

/** The service could not be reached, or the connection broke: exit 1. */
export class NetworkError extends CliError {
  constructor(
    message: string,
    readonly causeCode?: string,
  ) {
    super(
      message,
      ExitCode.failure,
      'Check the base URL (`outreach auth status`) and your connection; --debug shows each attempt.',
    );
  }
}

/** No API key anywhere: exit 4. */
export class MissingKeyError extends CliError {
  constructor(profile: string) {
    super(
      `no API key for profile "${profile}"`,
      ExitCode.auth,
      'Run `outreach auth login`, set OUTREACH_API_KEY, or try everything offline with --sandbox.',
    );
  }
}
