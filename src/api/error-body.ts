// Turns an error answer into a typed error: {error, type, code, message} bodies, HTML stripped.
import { ApiError, type ApiErrorDetails } from '../errors.js';

interface ErrorBody {
  code?: number;
  type?: string;
  message?: string;
}

function readErrorBody(body: unknown): ErrorBody {
  if (typeof body === 'string') return { message: body };
  if (typeof body !== 'object' || body === null) return {};
  const record = body as Record<string, unknown>;
  const code =
    typeof record.code === 'number'
      ? record.code
      : typeof record.code === 'string' && /^\d+$/.test(record.code)
        ? Number(record.code)
        : undefined;
  let message: string | undefined;
  if (typeof record.message === 'string') message = record.message;
  else if (Array.isArray(record.message)) message = record.message.map(String).join('; ');
  return { code, type: typeof record.type === 'string' ? record.type : undefined, message };
}

/** Error strings from the service contain HTML (`<br>`): show them as one plain line. */
export function stripHtml(text: string): string {
  return text
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function isAuthFailure(status: number, body: ErrorBody): boolean {
  if (status === 401 || status === 403) return true;
  // The real service reports a bad key as 400 with code 1001 "Invalid token".
  return status === 400 && body.code === 1001 && /token|api.?key|unauthori[sz]ed/i.test(body.message ?? '');
}

export function decodeErrorResponse(
  response: { status: number; body: unknown },
  method: string,
  path: string,
): ApiError {
  const body = readErrorBody(response.body);
  const details: ApiErrorDetails = { status: response.status, code: body.code, type: body.type, method, path };
  const text = stripHtml(body.message ?? '') || `HTTP ${response.status}`;
  const where = `${method} ${path}: HTTP ${response.status}${body.code !== undefined ? `, code ${body.code}` : ''}`;
  if (isAuthFailure(response.status, body)) {
    const hint = 'Check the key with `outreach auth status`, or store a new one with `outreach auth login`.';
    return new ApiError(`authentication failed (${where}): ${text}`, details, 'auth', hint);
  }
  if (response.status === 429) {
    const hint =
      'Wait and run the command again; --rate-limit-wait SECONDS waits longer, --concurrency 1 asks less often.';
    return new ApiError(`rate-limited (${where}): ${text}`, details, 'rate-limited', hint);
  }
  const hint =
    response.status >= 500 ? 'The service had a problem; try again later. --debug shows each attempt.' : undefined;
  return new ApiError(`${text} (${where})`, details, undefined, hint);
}
