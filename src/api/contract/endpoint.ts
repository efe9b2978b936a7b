// An endpoint of the contract: shared by the client (validate before sending, parse answers tolerantly)
// and by the sandbox (validate requests strictly, route by method and path).
import type { z } from 'zod/mini';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface Endpoint<
  Params extends z.ZodMiniType = z.ZodMiniType,
  Query extends z.ZodMiniType = z.ZodMiniType,
  Body extends z.ZodMiniType = z.ZodMiniType,
  Response extends z.ZodMiniType = z.ZodMiniType,
> {
  method: HttpMethod;
  /** Path template with `{name}` placeholders, e.g. `/v1/prospects/import-status/{requestId}`. */
  path: string;
  /** Whether a replay has the same effect as one call (DESIGN.md convention 7): then 500s and resets after sending are retried. */
  replaySafe: boolean;
  params?: Params;
  query?: Query;
  body?: Body;
  /** Tolerant: unknown fields pass through, both real-service and spec.md shapes are accepted. */
  response: Response;
  /** An endpoint about things named in its path or body: how "there is no such thing" is answered (404, or the other
   * codes given) and said, with what to do; several when the service answers each unknown id with a code of its own. */
  notFound?: NotFoundWords | NotFoundWords[];
}

/** How one "no such thing" answer is said: `no <what> <param's value>[ in <in.what> <in.param's value>]`; without
 * `what` (a code the service gives for several of the ids), in the service's own words. */
export interface NotFoundWords {
  what?: string;
  param?: string;
  /** The thing it belongs to, when the code does not say which of the two is unknown (true of the pair either way). */
  in?: { what: string; param: string };
  codes?: number[];
  hint?: string;
}

export function endpoint<
  P extends z.ZodMiniType,
  Q extends z.ZodMiniType,
  B extends z.ZodMiniType,
  R extends z.ZodMiniType,
>(e: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return e;
}

export function fillPath(template: string, params: Record<string, string> = {}): string {
  const parts = templateParts(template);
  let path = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const value = params[parts[i]!];
    if (value === undefined) throw new Error(`missing path parameter ${parts[i]} for ${template}`);
    path += encodeURIComponent(value) + parts[i + 1]!;
  }
  return path;
}

/** Each template as text and parameter names in turn ('/v1/dnc/{id}' is ['/v1/dnc/', 'id', '']), split once: a
 * list read page by page fills one path ten thousand times. */
const splitTemplates = new Map<string, string[]>();
const templateParts = (template: string): string[] => {
  let parts = splitTemplates.get(template);
  if (!parts) splitTemplates.set(template, (parts = template.split(/\{(\w+)\}/)));
  return parts;
};
