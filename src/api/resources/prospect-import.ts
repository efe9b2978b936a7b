// Sends one spooled import chunk. The body streams from its spool file, so a retry sends the same bytes again.
import type { Context } from '../../context.js';
import { ApiError } from '../../errors.js';
import type { HttpClient } from '../http.js';
import { prospectsEndpoints } from '../contract/prospects.js';
import type { AcceptedChunk } from '../../io/import/journal.js';
import type { SpooledChunk } from '../../io/import/chunk-spool.js';

/** A 30 MB chunk can take a while on a slow link: unless --timeout says otherwise, allow five minutes. */
const chunkTimeoutMs = 300_000;

function chunkTimeout(ctx: Pick<Context, 'env'> & { flags?: { timeout?: string } }): number | undefined {
  return ctx.flags?.timeout ? undefined : chunkTimeoutMs;
}

function acceptedFrom(chunk: SpooledChunk): AcceptedChunk {
  return {
    chunk: chunk.index,
    firstRow: chunk.firstRow,
    lastRow: chunk.lastRow,
    rows: chunk.rows,
    sha256: chunk.sha256,
  };
}

function unexpected(path: string, status: number, issue: string): ApiError {
  return new ApiError(`unexpected answer from POST ${path}: ${issue}`, { status, method: 'POST', path });
}

export async function importByNameChunk(
  http: HttpClient,
  chunk: SpooledChunk,
  ctx: Pick<Context, 'env'> & { flags?: { timeout?: string } },
): Promise<AcceptedChunk> {
  const e = prospectsEndpoints.importByName;
  const response = await http.send(e.method, e.path, {
    jsonBody: () => chunk.body() as AsyncIterable<Uint8Array>,
    replaySafe: e.replaySafe,
    timeoutMs: chunkTimeout(ctx),
  });
  const parsed = e.response.safeParse(response.body);
  if (!parsed.success) throw unexpected(e.path, response.status, 'no payload.requestId');
  return { ...acceptedFrom(chunk), requestId: parsed.data.payload.requestId };
}

export async function importByIdChunk(
  http: HttpClient,
  chunk: SpooledChunk,
  ctx: Pick<Context, 'env'> & { flags?: { timeout?: string } },
): Promise<AcceptedChunk> {
  const e = prospectsEndpoints.importById;
  const response = await http.send(e.method, e.path, {
    jsonBody: () => chunk.body() as AsyncIterable<Uint8Array>,
    replaySafe: e.replaySafe,
    timeoutMs: chunkTimeout(ctx),
  });
  const parsed = e.response.safeParse(response.body);
  if (!parsed.success) throw unexpected(e.path, response.status, 'no per-row payload');
  const failed = parsed.data.payload
    .filter((row) => row.status !== 10000)
    .map((row): [string, number] => [row.email, row.status]);
  return { ...acceptedFrom(chunk), failed };
}
