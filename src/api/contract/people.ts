// People search and enrichment (spec.md "Search and enrichment"; the start endpoint from real-service-notes.md).
import * as z from 'zod/mini';
import { nonEmpty, nullish, optional } from './schema.js';
import { endpoint } from './endpoint.js';

const includes = z.looseObject({ includes: optional(z.array(z.string())), excludes: optional(z.array(z.string())) });
const range = z.looseObject({ min: optional(z.string()), max: optional(z.string()) });

export const personSchema = z.looseObject({
  id: z.union([z.number(), z.string()]),
  full_name: optional(z.string()),
  job_title: nullish(z.string()),
  company_name: nullish(z.string()),
  company_website: nullish(z.string()),
  department: nullish(z.string()),
  location: nullish(
    z.looseObject({ country: nullish(z.string()), state: nullish(z.string()), city: nullish(z.string()) }),
  ),
  decision_maker: nullish(z.boolean()),
});

const searchPage = z.looseObject({
  display_limit: optional(z.number()),
  total_results: optional(z.number()),
  page: optional(z.number()),
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
});

const limit = z.looseObject({ limit: z.number(), remaining: z.number(), resetAt: z.number() });

export const peopleEndpoints = {
  search: endpoint({
    method: 'POST',
    path: '/v1/search/people',
    replaySafe: true,
    body: z.looseObject({
      full_name: optional(includes),
      job_title: optional(includes),
      company_size: optional(range),
      page: optional(z.number().check(z.int(), z.gte(1), z.lte(400))),
      limitPerCompany: optional(z.number().check(z.int(), z.gte(1), z.lte(10000))),
    }),
    // When nothing matches, payload is an empty array instead of an object.
    response: z.looseObject({ message: optional(z.string()), payload: z.union([searchPage, z.array(z.unknown())]) }),
  }),
  enrich: endpoint({
    method: 'POST',
    path: '/v1/enrich/contact',
    // Each call may charge credits: never replayed once it may have reached the service.
    replaySafe: false,
    body: z.looseObject({ lead_id: optional(z.array(z.number())), linkedin_url: optional(z.array(nonEmpty)) }),
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ requestId: optional(z.string()) }),
    }),
  }),
  enrichStatus: endpoint({
    method: 'GET',
    path: '/v1/enrich/status/{requestId}',
    replaySafe: true,
    params: z.object({ requestId: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()), payload: enrichmentJob }),
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
