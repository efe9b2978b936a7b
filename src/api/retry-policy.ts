// When to replay a request (DESIGN.md convention 7), and how long to wait first.

export type AttemptOutcome =
  | {
      kind: 'response';
      response: { status: number; headers: Record<string, string | string[] | undefined>; body: unknown };
    }
  | { kind: 'network'; mayHaveReachedServer: boolean; code: string }
  | { kind: 'timeout'; mayHaveReachedServer: boolean; code: 'TIMEOUT' };

export interface RetryDecision {
  retry: boolean;
  /** Why, for the --debug log; empty for plain successes. */
  reason: string;
}

// The service did not act on these: a replay is safe for any request.
const alwaysRetryStatuses = new Set([429, 502, 503, 504]);

/** A certificate or TLS failure: the same on every try, and nothing was sent. */
export function isTlsFailure(code: string): boolean {
  return /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$)/.test(code);
}

/** Failures that say the address is wrong (no such host, nothing listening, no answer) rather than that a working
 * service had a bad moment: not retried until the service has answered once in this run, since a user who mistyped a
 * base URL should hear so at once. Once it has answered (a long import), they are the service restarting: retried. */
const wrongAddressCodes = new Set(['ECONNREFUSED', 'CONNECT_TIMEOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND']);

export function retryDecision(outcome: AttemptOutcome, replaySafe: boolean, answeredBefore = true): RetryDecision {
  if (outcome.kind === 'network') {
    // A certificate refused before anything was sent; a TLS fault on a live connection is a network fault like others.
    if (isTlsFailure(outcome.code) && !outcome.mayHaveReachedServer)
      return { retry: false, reason: `${outcome.code} is the same on every try` };
    if (!answeredBefore && wrongAddressCodes.has(outcome.code))
      return { retry: false, reason: `${outcome.code} from a service that has not answered yet in this run` };
  }
  if (outcome.kind === 'network' || outcome.kind === 'timeout') {
    if (!outcome.mayHaveReachedServer) return { retry: true, reason: `${outcome.code} before the request was sent` };
    if (replaySafe) return { retry: true, reason: `${outcome.code} after sending; the request is safe to replay` };
    return {
      retry: false,
      reason: `${outcome.code} after sending; the server may have acted on it, so it is not replayed`,
    };
  }
  const { status } = outcome.response;
  if (alwaysRetryStatuses.has(status)) return { retry: true, reason: `HTTP ${status}` };
  if (status >= 500) {
    if (replaySafe) return { retry: true, reason: `HTTP ${status}; the request is safe to replay` };
    return { retry: false, reason: `HTTP ${status} on a request that is not safe to replay` };
  }
  return { retry: false, reason: '' };
}

/** Exponential backoff from 500 ms, capped, with "equal jitter": half fixed, half random. */
export function backoffDelay(attempt: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, 500 * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Retry-After as seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | string[] | undefined, now: number): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
