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

export async function enrichmentStatus(http: HttpClient, requestId: string): Promise<EnrichmentJob> {
  const { payload } = await call(http, peopleEndpoints.enrichStatus, { params: { requestId } });
  return { ...payload, requestId: payload.requestId ?? requestId };
}

export async function enrichmentResults(http: HttpClient, requestId: string): Promise<EnrichedPerson[]> {
  return (await call(http, peopleEndpoints.enrichResults, { params: { requestId } })).items;
}

export type RateLimits = Record<'perMinute' | 'perHour' | 'perDay', RateLimitWindow>;

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
