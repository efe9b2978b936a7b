// People search and enrichment calls, with the answers' variations read in one place.
import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import {
  peopleEndpoints,
  searchPageSchema,
  type EnrichedPerson,
  type EnrichmentJob,
  type Person,
  type RateLimitWindow,
  type SearchBody,
} from '../contract/people.js';
import { ApiError, UsageError } from '../../errors.js';

export interface SearchPage {
  people: Person[];
  /** The people the account may page through, at most. */
  displayLimit?: number;
  totalResults: number;
  totalPages?: number;
  hasNextPage: boolean;
}

/** One page; nothing found (the service answers `payload: []`) is a page with no people. */
export async function searchPeople(http: HttpClient, body: SearchBody): Promise<SearchPage> {
  const { payload } = await call(http, peopleEndpoints.search, { body });
  if (Array.isArray(payload)) return { people: [], totalResults: 0, totalPages: 0, hasNextPage: false };
  const page = payload as ReturnType<typeof searchPageSchema.parse>;
  return {
    people: page.people,
    displayLimit: page.display_limit,
    totalResults: page.total_results ?? page.people.length,
    totalPages: page.total_pages,
    hasNextPage: page.has_next_page ?? (page.total_pages !== undefined && (page.page ?? 1) < page.total_pages),
  };
}

export interface EnrichStart {
  lead_id?: number[];
  linkedin_url?: string[];
  email_type?: 'work_email' | 'personal_email';
  reveal_phone?: boolean;
}

export async function startEnrichment(http: HttpClient, body: EnrichStart): Promise<string> {
  const { payload } = await call(http, peopleEndpoints.enrich, { body });
  return payload.requestId;
}

/** An unknown job is 404 (or 400) with code 40000: said as such, exit 2. */
function unknownJob(error: unknown, requestId: string): never {
  if (error instanceof ApiError && (error.details.status === 404 || error.details.code === 40000))
    throw new UsageError(`no enrichment job ${requestId}`, 'Request ids are printed by `outreach enrich contacts`.');
  throw error;
}

export async function enrichmentStatus(http: HttpClient, requestId: string): Promise<EnrichmentJob> {
  try {
    const { payload } = await call(http, peopleEndpoints.enrichStatus, { params: { requestId } });
    return { ...payload, requestId: payload.requestId ?? requestId };
  } catch (error) {
    unknownJob(error, requestId);
  }
}

export async function enrichmentResults(http: HttpClient, requestId: string): Promise<EnrichedPerson[]> {
  try {
    return (await call(http, peopleEndpoints.enrichResults, { params: { requestId } })).items;
  } catch (error) {
    unknownJob(error, requestId);
  }
}

export type RateLimits = Record<'perMinute' | 'perHour' | 'perDay', RateLimitWindow>;

export async function enrichmentRateLimits(http: HttpClient): Promise<RateLimits> {
  return (await call(http, peopleEndpoints.rateLimits)).payload;
}

/** resetAt arrives in Unix seconds (the real sample); a value in milliseconds is taken as such. */
export function resetAtMs(resetAt: number): number {
  return resetAt < 1e12 ? resetAt * 1000 : resetAt;
}

/** Whether a job has stopped changing: everyone processed (when the counts are given), or a finished status. An
 * unknown status (`initiated`, `IN_QUEUE`) is not taken for finished. */
export function enrichmentDone(job: EnrichmentJob): boolean {
  if (job.totalRecords !== undefined && job.processed !== undefined && job.processed >= job.totalRecords) return true;
  return /complet|done|finish|success|fail|error|cancel/i.test(job.status);
}
