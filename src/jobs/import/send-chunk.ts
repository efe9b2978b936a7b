// Sends one import chunk: its spooled body, read afresh for each attempt (a retry sends the same bytes again).
import type { z } from 'zod/mini';
import { ApiError } from '../../errors.js';
import { prospectsEndpoints } from '../../api/contract/prospects.js';
import { sequencesEndpoints } from '../../api/contract/sequences.js';
import type { HttpClient } from '../../api/http.js';
import { isUnitRange, type UnitRange } from '../journal.js';
import type { BuiltChunk, SpooledChunk } from './chunk-builder.js';

/** A 30 MB chunk can take a while on a slow link: unless --timeout says otherwise, allow five minutes. */
const chunkTimeoutMs = 300_000;

export interface AcceptedChunk extends UnitRange {
  chunk: number;
  /** Asynchronous imports: the id to poll. */
  requestId?: string;
  /** Synchronous imports: the rows the service did not take, as [email, status code]. */
  failed?: Array<[string, number]>;
  /** Sent more than once after a lost answer: rows the service calls unchanged may have been written by us. */
  replayed?: true;
}

/** An import journals each chunk as the service accepted it. */
export type ImportRecords = { planned: never; accepted: Omit<AcceptedChunk, 'chunk'>; done: never };

/** An accepted chunk read back from a journal: its range, and an id, failures and replay mark of the right shapes. */
export function isAcceptedChunk(value: unknown): value is Omit<AcceptedChunk, 'chunk'> {
  if (!isUnitRange(value)) return false;
  const { requestId, failed, replayed } = value as Partial<AcceptedChunk>;
  const failure = (f: unknown) => Array.isArray(f) && typeof f[0] === 'string' && Number.isSafeInteger(f[1]);
  return (
    (requestId === undefined || (typeof requestId === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(requestId))) &&
    (failed === undefined || (Array.isArray(failed) && failed.every(failure))) &&
    (replayed === undefined || replayed === true)
  );
}

export function rangeOf(chunk: BuiltChunk): UnitRange {
  return { firstRow: chunk.firstRow, lastRow: chunk.lastRow, rows: chunk.rows, sha256: chunk.sha256 };
}

function unexpected(path: string, status: number, issue: string): ApiError {
  return new ApiError(`unexpected answer from POST ${path}: ${issue}`, { status, method: 'POST', path });
}

export type ChunkSend = (http: HttpClient, chunk: SpooledChunk, timeoutGiven: boolean) => Promise<AcceptedChunk>;

/** POSTs the chunk's body and parses the answer with the endpoint's schema. */
async function postChunk<
  E extends
    | typeof prospectsEndpoints.importByName
    | typeof prospectsEndpoints.importById
    | typeof sequencesEndpoints.importProspects,
>(
  http: HttpClient,
  e: E,
  chunk: SpooledChunk,
  timeoutGiven: boolean,
  missing: string,
): Promise<{ answer: z.output<E['response']>; built: BuiltChunk; replayed?: true }> {
  const response = await http.send(e.method, e.path, {
    jsonBody: () => chunk.body(),
    replaySafe: e.replaySafe,
    timeoutMs: timeoutGiven ? undefined : chunkTimeoutMs,
  });
  const parsed = e.response.safeParse(response.body);
  if (!parsed.success) throw unexpected(e.path, response.status, missing);
  return {
    answer: parsed.data as z.output<E['response']>,
    built: chunk,
    ...(response.replayed ? { replayed: true } : {}),
  };
}

/** An asynchronous import by field name, to the prospects' endpoint or the sequence-scoped one (the same body and
 * answer): the answer's requestId is what to poll. */
function byNameChunk(e: typeof prospectsEndpoints.importByName | typeof sequencesEndpoints.importProspects): ChunkSend {
  return async (http, chunk, timeoutGiven) => {
    const { answer, built, replayed } = await postChunk(http, e, chunk, timeoutGiven, 'no payload.requestId');
    return {
      chunk: chunk.index,
      ...rangeOf(built),
      requestId: answer.payload.requestId,
      ...(replayed && { replayed }),
    };
  };
}

export const importByNameChunk = byNameChunk(prospectsEndpoints.importByName);
export const sequenceImportChunk = byNameChunk(sequencesEndpoints.importProspects);

export const importByIdChunk: ChunkSend = async (http, chunk, timeoutGiven) => {
  const { answer, built, replayed } = await postChunk(
    http,
    prospectsEndpoints.importById,
    chunk,
    timeoutGiven,
    'no per-row payload',
  );
  const failed = answer.payload
    .filter((row) => row.status !== 10000)
    .map((row): [string, number] => [row.email, row.status]);
  return { chunk: chunk.index, ...rangeOf(built), failed, ...(replayed && { replayed }) };
};
