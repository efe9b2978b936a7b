// Calls a contract endpoint: checks the input with the contract's schemas before sending, parses the answer tolerantly.
import type { z } from 'zod/mini';
import { describeIssue } from './contract/schema.js';
import { ApiError, NotFound, UsageError } from '../errors.js';
import type { Endpoint } from './contract/endpoint.js';
import { fillPath } from './contract/endpoint.js';
import type { HttpClient, Query, SendOptions } from './http.js';
import type { KeptMembers } from './lean-json.js';

export interface CallInput {
  params?: Record<string, string>;
  query?: Query;
  body?: unknown;
  form?: FormData;
  timeoutMs?: number;
  /** The only members of a success's JSON the response schema reads, for pages read by the thousand: the others are
   * checked but never built (lean-json.ts). */
  keepOnly?: KeptMembers;
}

export async function call<E extends Endpoint>(
  http: HttpClient,
  e: E,
  input: CallInput = {},
): Promise<z.output<E['response']>> {
  return (await callWithBody(http, e, input)).data;
}

/** The endpoint's "no such thing" answer, said as its contract entry words it; undefined for any other failure. */
function notFound(e: Endpoint, ids: Record<string, string>, error: unknown): NotFound | undefined {
  if (!e.notFound || !(error instanceof ApiError) || error.failure === 'auth') return undefined;
  const { status, code } = error.details;
  const all = [e.notFound].flat();
  const words = all.find((w) => code !== undefined && w.codes?.includes(code)) ?? (status === 404 ? all[0] : undefined);
  if (!words) return undefined;
  if (!words.what) return new NotFound(error.message, words.hint);
  const named = (what: string, param: string | undefined) => `${what} ${param ? (ids[param] ?? '') : ''}`.trim();
  const within = words.in ? ` in ${named(words.in.what, words.in.param)}` : '';
  return new NotFound(`no ${named(words.what, words.param)}${within}`, words.hint);
}

/** The parsed answer and the body as it came, for --json of answers whose envelope varies. */
export async function callWithBody<E extends Endpoint>(
  http: HttpClient,
  e: E,
  input: CallInput = {},
): Promise<{ data: z.output<E['response']>; body: unknown }> {
  if (e.query && input.query) {
    const checked = e.query.safeParse(input.query);
    if (!checked.success)
      throw new UsageError(`invalid request to ${e.method} ${e.path}: ${describeIssue(checked.error, 'query')}`);
  }
  if (e.body && input.body !== undefined) {
    const checked = e.body.safeParse(input.body);
    if (!checked.success)
      throw new UsageError(`invalid request to ${e.method} ${e.path}: ${describeIssue(checked.error, 'body')}`);
  }
  const path = fillPath(e.path, input.params);
  const options: SendOptions = {
    query: input.query,
    json: input.body,
    form: input.form,
    replaySafe: e.replaySafe,
    timeoutMs: input.timeoutMs,
    keepOnly: input.keepOnly,
  };
  const response = await http.send(e.method, path, options).catch((error: unknown) => {
    // The id may be a path parameter or, as for a DNC upload's list, a field of the body.
    const body = typeof input.body === 'object' && input.body !== null && !Array.isArray(input.body) ? input.body : {};
    const ids = { ...body, ...input.query, ...input.params } as Record<string, string>;
    throw notFound(e, ids, error) ?? error;
  });
  const parsed = e.response.safeParse(response.body);
  if (!parsed.success) {
    throw new ApiError(
      `unexpected answer from ${e.method} ${path}: ${describeIssue(parsed.error, 'response')}`,
      {
        status: response.status,
        method: e.method,
        path,
      },
      undefined,
      'The service may have changed; `outreach api` shows the raw answer.',
    );
  }
  return { data: parsed.data as z.output<E['response']>, body: response.body };
}
