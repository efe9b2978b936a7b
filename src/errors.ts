// The errors every layer throws. They say what failed and, in `hint`, what to do; they know nothing of exit codes:
// src/cli/exit-codes.ts alone maps them to codes and messages.
import type { NextStep } from './next-step.js';

/** Base class: an expected failure, reported as one line plus an optional hint (no stack trace). */
export class OutreachError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag, argument or value: nothing was sent. */
export class UsageError extends OutreachError {}

/** A file found broken (a quote never closed) after the service accepted part of it: not "nothing was sent" (exit 2)
 * but a job to continue once it is fixed (exit 1), `then` saying how. */
export function brokenAfterAccepted(error: UsageError, then: string): OutreachError {
  return new OutreachError(error.message, `${error.hint ? `${error.hint} ` : ''}${then}`);
}

/** An input file that cannot be used as given: missing, unreadable, or wrong at a row and column. */
export class InputFileError extends OutreachError {
  constructor(
    readonly path: string,
    readonly problem: string,
    hint?: string,
  ) {
    super(`${path}: ${problem}`, hint);
  }
}

/** Ctrl-C or SIGTERM: the command stopped where it was, with what was done recorded. */
export class Interrupted extends OutreachError {
  constructor(message = 'interrupted', hint?: string) {
    super(message, hint);
  }
}

/** The reader of stdout went away (`outreach ... | head`): stop producing, say nothing. `failed`: stdout broke some
 * other way (a full disk), which was said already and exits 1. */
export class OutputClosed extends Interrupted {
  constructor(readonly failed = false) {
    super('stdout was closed by the reader');
  }
}

/** Why the service said no: a refused key, throttling that outlasted the retries, or anything else. */
export type ApiFailure = 'auth' | 'rate-limited' | 'other';

export interface ApiErrorDetails {
  status: number;
  /** The API's own code from the error body (4000, 40000, 1001 ...), when it gave one. */
  code?: number;
  type?: string;
  method: string;
  path: string;
}

/** The service answered with an error, or with an answer that cannot be read. */
export class ApiError extends OutreachError {
  constructor(
    message: string,
    readonly details: ApiErrorDetails,
    readonly failure: ApiFailure = 'other',
    hint?: string,
  ) {
    super(message, hint);
  }
}

/** The thing a request named does not exist (the service said so): a mistake in the input, like a bad flag. */
export class NotFound extends UsageError {}

/** The service refused this one request (a 4xx that is not about the key or throttling): an item of a batch can be
 * reported and passed over; anything else (network, auth, rate limit, 5xx) stops the batch. */
export function isRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && error.failure === 'other' && error.details.status < 500;
}

/** The service could not be reached, or the connection broke. `sent` says whether the request may have arrived. */
export class NetworkError extends OutreachError {
  constructor(
    message: string,
    readonly code: string,
    readonly sent: boolean,
    hint = 'Check the base URL (`outreach auth status`) and your connection; --debug shows each attempt.',
  ) {
    super(message, hint);
  }
}

/** No API key anywhere. */
export class MissingKeyError extends OutreachError {
  constructor(profile: string) {
    super(
      `no API key for profile "${profile}"`,
      'Run `outreach auth login`, set OUTREACH_API_KEY, or try everything offline with --sandbox.',
    );
  }
}

/** A link the service handed over (a report's) that is not followed: plain http to another machine, or not a web
 * link at all. Refused before any request, so nothing was sent to it. */
export class RefusedLink extends OutreachError {
  constructor(
    readonly link: string,
    readonly host: string,
    what = 'link',
  ) {
    super(
      `the ${what} to ${host || link} is not https; only https links (or http to this machine) are followed, ` +
        'so nothing was sent to it',
    );
  }
}

/** Why a run cannot go on with the journal of its job (jobs/journal.ts), as data: the CLI says it in the words of its
 * flags (cli/journal-words.ts), an agent's front end in its own. */
export type JournalRefusal =
  /** A resume, and no journal. */
  | { kind: 'missing' }
  /** A resume of a journal of another service, account or input: each difference in words. */
  | { kind: 'not-bound'; differences: string[] }
  /** A resume with settings other than the run recorded. */
  | { kind: 'settings-differ'; keys: string[] }
  /** A new run over an unfinished one that had units accepted. */
  | { kind: 'unfinished'; accepted: number }
  /** A journal that cannot be used: of another version (`untrusted` false), or a file not trusted (a link, one others
   * may write). */
  | { kind: 'unusable'; problem: string; untrusted: boolean };

export class JournalRefused extends OutreachError {
  constructor(
    readonly refusal: JournalRefusal,
    /** The job's kind (JobKind of jobs/journal.ts). */
    readonly job: string,
    readonly path: string,
  ) {
    super(`${path}: ${refusal.kind === 'unusable' ? refusal.problem : refusal.kind}`);
  }
}

/** A chunk of an import that could not be written to the temporary folder; `full`: for want of room (a full disk, a
 * quota, a file size limit), which the front end says how to make. */
export class SpoolFailed extends OutreachError {
  constructor(
    readonly dir: string,
    reason: string,
    readonly full: boolean,
  ) {
    super(`cannot write an import chunk to ${dir}: ${reason}`);
  }
}

/** A wait for work at the service passed its deadline (--wait-timeout); the work goes on there, and `later` says how to
 * check on it. */
export class WaitTimedOut extends OutreachError {
  constructor(
    readonly what: string,
    readonly waitedMs: number,
    readonly later?: NextStep,
    hint?: string,
    /** How the front end calls the deadline's setting (the CLI: --wait-timeout); a job does not say it. */
    readonly setting?: string,
  ) {
    super(`${what} is still running after ${waitedMs / 1000}s${setting ? ` (${setting})` : ''}`, hint);
  }
}
