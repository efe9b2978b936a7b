// People search and enrichment (spec.md "Search and enrichment"; the start and results endpoints from
// real-service-notes.md, whose answers it does not show: the results are read tolerantly).
import * as z from 'zod/mini';
import { listOf, nonEmpty, nullish, optional } from './schema.js';
import { endpoint } from './endpoint.js';

const flag01 = optional(z.union([z.literal(0), z.literal(1)]));
const strings = optional(z.array(z.string()));

/** Filters that only include: full_name (with exactMatch), certifications, social_link, keywords. */
const includeOnly = z.object({ includes: strings, exactMatch: flag01 });
/** Filters that include and exclude; some also take exactMatch, job title and company also shouldSearchPast. */
const includeExclude = z.object({ includes: strings, excludes: strings, exactMatch: flag01, shouldSearchPast: flag01 });
/** Ranges are strings in the request: numbers, or dates for company_funding_date. */
const range = z.object({ min: optional(z.string()), max: optional(z.string()) });

export const includeOnlyFilters = ['full_name', 'certifications', 'social_link', 'keywords'] as const;
export const includeExcludeFilters = [
  'location',
  'company_hq_location',
  'skills',
  'department',
  'management_level',
  'company_industry',
  'education_degrees',
  'company_domain',
  'job_title',
  'company_name',
] as const;
/** Filters that accept exactMatch (spec.md). */
export const exactMatchFilters = [
  'full_name',
  'location',
  'company_hq_location',
  'skills',
  'job_title',
  'company_name',
] as const;
/** Filters that accept shouldSearchPast. */
export const pastFilters = ['job_title', 'company_name'] as const;
export const rangeFilters = [
  'jobs_changed_within',
  'company_annual_revenue',
  'company_funding_amount',
  'company_funding_date',
  'company_founded_year',
  'current_company_experience',
  'current_role_tenure',
  'total_experience',
  'projected_base_salary',
  'company_size',
  'linkedin_connection_count',
  'linkedin_followers_count',
] as const;
export const booleanFilters = ['decision_maker', 'company_bootstraped', 'is_b2b'] as const;

export const maxSearchPage = 400;
/** People a search page holds: the service's fixed per_page. */
export const searchPageSize = 25;

export const searchBodySchema = z.strictObject({
  ...Object.fromEntries(includeOnlyFilters.map((name) => [name, optional(includeOnly)])),
  ...Object.fromEntries(includeExcludeFilters.map((name) => [name, optional(includeExclude)])),
  ...Object.fromEntries(rangeFilters.map((name) => [name, optional(range)])),
  ...Object.fromEntries(booleanFilters.map((name) => [name, optional(z.boolean())])),
  linkedin_url: strings,
  page: optional(z.number().check(z.int(), z.gte(1), z.lte(maxSearchPage))),
  limitPerCompany: optional(z.number().check(z.int(), z.gte(1), z.lte(10000))),
});
export type SearchBody = Record<string, unknown> & { page?: number; limitPerCompany?: number };

export const personSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  full_name: optional(z.string()),
  job_title: nullish(z.string()),
  company_name: nullish(z.string()),
  company_website: nullish(z.string()),
  department: nullish(z.string()),
  linkedin_url: nullish(z.string()),
  location: nullish(
    z.looseObject({ country: nullish(z.string()), state: nullish(z.string()), city: nullish(z.string()) }),
  ),
  total_experience: nullish(z.number()),
  decision_maker: nullish(z.boolean()),
  company_is_b2b: nullish(z.boolean()),
});
export type Person = z.infer<typeof personSchema>;

export const searchPageSchema = z.looseObject({
  display_limit: optional(z.number()),
  total_results: optional(z.number()),
  page: optional(z.number()),
  per_page: optional(z.number()),
  total_pages: optional(z.number()),
  has_next_page: optional(z.boolean()),
  people: z.array(personSchema),
});

const enrichmentJob = z.looseObject({
  requestId: optional(z.string()),
  status: z.string(),
  totalRecords: optional(z.number()),
  processed: optional(z.number()),
  succeeded: optional(z.number()),
  failed: optional(z.number()),
  alreadyRevealed: optional(z.number()),
  creditsCharged: optional(z.number()),
});
export type EnrichmentJob = z.infer<typeof enrichmentJob>;

/** One person of an enrichment's results: who (lead id or LinkedIn URL) and what was found. */
export const enrichedPersonSchema = z.looseObject({
  id: nullish(z.union([z.number(), z.string()])),
  lead_id: nullish(z.union([z.number(), z.string()])),
  linkedin_url: nullish(z.string()),
  email: nullish(z.string()),
  phone: nullish(z.string()),
  status: nullish(z.string()),
});
export type EnrichedPerson = z.infer<typeof enrichedPersonSchema>;

const limit = z.looseObject({ limit: z.number(), remaining: z.number(), resetAt: z.number() });
export type RateLimitWindow = z.infer<typeof limit>;

/** People per start request: the service's limit is not documented; the sandbox enforces this one. */
export const maxEnrichPerRequest = 100;
export const emailTypes = ['work_email', 'personal_email'] as const;

/** An unknown enrichment job: 404, or 400 with code 40000. */
const unknownEnrichment = {
  what: 'enrichment job',
  param: 'requestId',
  codes: [40000],
  hint: 'Request ids are printed by `outreach enrich contacts`.',
};

export const peopleEndpoints = {
  search: endpoint({
    method: 'POST',
    path: '/v1/search/people',
    replaySafe: true,
    body: searchBodySchema,
    // When nothing matches, payload is an empty array instead of an object.
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.union([searchPageSchema, z.array(z.unknown())]),
    }),
  }),
  enrich: endpoint({
    method: 'POST',
    path: '/v1/enrich/contact',
    // Each call may charge credits: never replayed once it may have reached the service.
    replaySafe: false,
    body: z.strictObject({
      lead_id: optional(z.array(z.number()).check(z.minLength(1), z.maxLength(maxEnrichPerRequest))),
      linkedin_url: optional(z.array(nonEmpty).check(z.minLength(1), z.maxLength(maxEnrichPerRequest))),
      full_name_with_company: optional(z.array(z.unknown()).check(z.minLength(1), z.maxLength(maxEnrichPerRequest))),
      email_type: optional(z.enum(emailTypes)),
      reveal_phone: optional(z.boolean()),
      profile_only: optional(z.boolean()),
      webhook_url: optional(nonEmpty),
    }),
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ requestId: z.string() }),
    }),
  }),
  enrichStatus: endpoint({
    method: 'GET',
    path: '/v1/enrich/status/{requestId}',
    replaySafe: true,
    params: z.object({ requestId: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()), payload: enrichmentJob }),
    notFound: unknownEnrichment,
  }),
  enrichResults: endpoint({
    method: 'GET',
    path: '/v1/enrich/status/result/{requestId}',
    replaySafe: true,
    params: z.object({ requestId: nonEmpty }),
    notFound: unknownEnrichment,
    // The shape is not documented: the people are read from wherever the answer lists them.
    response: listOf(enrichedPersonSchema, ['people', 'results', 'contacts', 'data']),
  }),
  rateLimits: endpoint({
    method: 'GET',
    path: '/v1/enrich/rate-limits',
    replaySafe: true,
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ perMinute: limit, perHour: limit, perDay: limit }),
    }),
  }),
};
