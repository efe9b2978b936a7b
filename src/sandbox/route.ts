import type { z } from 'zod/mini';
import type { Endpoint } from '../api/contract/endpoint.js';
import type { Store } from './store.js';
import type { IncomingMessage } from 'node:http';

export interface SandboxRequest {
  method: string;
  path: string;
  params: Record<string, string>;
  /** The query after contract validation (coerced values). */
  query: Record<string, unknown>;
  /** The JSON body after contract validation, or the raw text for non-JSON bodies. */
  body: unknown;
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  /** http://host:port of this sandbox, for links it hands out (reports, status URLs). */
  origin: string;
  /** The request itself, unread when it is multipart (uploads stream it). */
  incoming: IncomingMessage;
  /** What the route's `prepare` made of the request, before its transaction. */
  prepared?: unknown;
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  /** A non-JSON answer (CSV reports). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Work that waits on another server (a webhook's test delivery), done once the request's transaction has
   * committed, so no lock is held meanwhile; its answer is the one sent. */
  followUp?: () => Promise<SandboxResponse>;
}

/** A request as a handler of endpoint E sees it: path, query and body already checked and typed by the contract. */
export interface TypedRequest<E extends Endpoint> extends Omit<SandboxRequest, 'params' | 'query' | 'body'> {
  params: E extends Endpoint<infer P> ? z.output<P> : never;
  query: E extends Endpoint<z.ZodMiniType, infer Q> ? z.output<Q> : never;
  body: E extends Endpoint<z.ZodMiniType, z.ZodMiniType, infer B> ? z.output<B> : never;
}

export interface Route {
  endpoint: Endpoint;
  /** Work on the request that waits on the client (reading an upload's stream): done before the transaction, which
   * no other writer can enter while it is open. Its result is the handler's `req.prepared`. */
  prepare?(req: SandboxRequest): Promise<unknown>;
  handle(req: SandboxRequest, store: Store): SandboxResponse | Promise<SandboxResponse>;
}

export type Handler<E extends Endpoint> = (
  req: TypedRequest<E>,
  store: Store,
) => SandboxResponse | Promise<SandboxResponse>;

/** A handler that first reads what the request streams (an upload), outside the transaction. */
export interface PreparedHandler<E extends Endpoint> {
  prepare(req: SandboxRequest): Promise<unknown>;
  handle: Handler<E>;
}

/** A handler for each endpoint of a contract group, by the endpoint's name. */
export type Handlers<G extends Record<string, Endpoint>> = { [K in keyof G]: Handler<G[K]> | PreparedHandler<G[K]> };

/** The routes of a contract group: one handler an endpoint, so an endpoint without one (or a handler for no endpoint)
 * is a compile error. The server validates with the endpoint's schemas before calling it. */
export function routesOf<G extends Record<string, Endpoint>>(endpoints: G, handlers: Handlers<G>): Route[] {
  return Object.keys(endpoints).map((name) => {
    const handler = handlers[name as keyof G] as Handler<Endpoint> | PreparedHandler<Endpoint>;
    const endpoint = endpoints[name]!;
    return typeof handler === 'function'
      ? { endpoint, handle: handler as Route['handle'] }
      : { endpoint, handle: handler.handle as Route['handle'], prepare: handler.prepare };
  });
}
