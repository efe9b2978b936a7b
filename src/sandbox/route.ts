import type { Endpoint } from '../api/contract/endpoint.js';
import type { Store } from './store.js';

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
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  /** A non-JSON answer (CSV reports). */
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface Route {
  endpoint: Endpoint;
  handle(req: SandboxRequest, store: Store): SandboxResponse | Promise<SandboxResponse>;
}

export function route(endpoint: Endpoint, handle: Route['handle']): Route {
  return { endpoint, handle };
}
