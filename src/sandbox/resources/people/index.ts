// People search and enrichment (spec.md "Search and enrichment", real-service-notes.md for the start and results
// endpoints). A search pages through at most display_limit people, 25 a page; nothing found answers `payload: []`.
// An enrichment decides at its start what it will reveal and reveals it evenly until the settings' enrichmentMs has passed;
// people revealed before count as alreadyRevealed and cost no credit. Starts are counted against per-minute, -hour and
// -day windows; a start when one is used up is refused with 429.
import { maxSearchPage, peopleEndpoints, searchPageSize } from '../../../api/contract/people.js';
import { defineTable } from '../../db/table.js';
import type { EnrichedEntry, EnrichmentRecord, EnrichmentLimits, RevealedRecord } from '../../model.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import type { Store } from '../../store.js';
import { emailOf, normaliseLinkedinUrl, phoneOf, type IndexedPerson } from './people-index.js';
import { searchPeople } from './people-search.js';

export const enrichmentsTable = defineTable<EnrichmentRecord>({ name: 'enrichments', id: (e) => e.requestId });
export const revealedTable = defineTable<RevealedRecord>({ name: 'revealed', id: (r) => r.key });

const windows: Array<[keyof EnrichmentLimits, number]> = [
  ['perMinute', 60_000],
  ['perHour', 3_600_000],
  ['perDay', 86_400_000],
];

/** Each window: limit, what is left, and when it resets (Unix seconds, as the real service's sample). */
function rateLimitStatus(store: Store) {
  const now = store.now();
  const starts = store.meta().enrichmentStarts.filter((at) => at > now - 86_400_000);
  return Object.fromEntries(
    windows.map(([name, length]) => {
      const windowStart = Math.floor(now / length) * length;
      const used = starts.filter((at) => at >= windowStart).length;
      const limit = store.settings.enrichmentLimits[name];
      return [name, { limit, remaining: Math.max(0, limit - used), resetAt: (windowStart + length) / 1000 }];
    }),
  ) as Record<keyof EnrichmentLimits, { limit: number; remaining: number; resetAt: number }>;
}

/** How far a job has got: everyone by completesAt, evenly before. */
function processedCount(store: Store, job: EnrichmentRecord): number {
  const total = job.people.length;
  if (store.now() >= job.completesAt) return total;
  const share = (store.now() - job.createdAt) / Math.max(1, job.completesAt - job.createdAt);
  return Math.min(total, Math.floor(total * share));
}

function jobById(store: Store, requestId: string): EnrichmentRecord {
  const job = store.table(enrichmentsTable).get(requestId);
  if (!job) throw new SandboxError(404, 40000, `Enrichment request ${requestId} not found`);
  return job;
}

function jobStatus(store: Store, job: EnrichmentRecord) {
  const done = job.people.slice(0, processedCount(store, job));
  const count = (outcome: EnrichedEntry['outcome']) => done.filter((p) => p.outcome === outcome).length;
  return {
    requestId: job.requestId,
    status: done.length === job.people.length ? 'completed' : 'in-progress',
    totalRecords: job.people.length,
    processed: done.length,
    succeeded: count('revealed') + count('already_revealed'),
    failed: count('not_found'),
    alreadyRevealed: count('already_revealed'),
    creditsCharged: done.reduce((sum, p) => sum + p.credits, 0),
  };
}

function enrichOne(
  store: Store,
  person: IndexedPerson | undefined,
  by: EnrichedEntry['by'],
  value: string,
  job: Pick<EnrichmentRecord, 'emailType' | 'revealPhone'>,
): EnrichedEntry {
  const email = person && emailOf(person, job.emailType);
  if (!person || !email) return { by, value, personId: person?.person.id, outcome: 'not_found', credits: 0 };
  const phone = job.revealPhone ? phoneOf(person) : undefined;
  const key = `${person.person.id}:${job.emailType}`;
  const revealed = store.table(revealedTable);
  const before = revealed.get(key) !== undefined;
  if (!before) revealed.put({ key });
  return {
    by,
    value,
    personId: person.person.id,
    outcome: before ? 'already_revealed' : 'revealed',
    email,
    phone,
    credits: before ? 0 : 1 + (phone ? 1 : 0),
  };
}

const routes = routesOf(peopleEndpoints, {
  search: (req, store) => {
    const found = searchPeople(store.peopleIndex().all, req.body);
    if (found.length === 0) return { status: 200, body: { message: 'No people found', payload: [] } };
    const displayLimit = store.settings.displayLimit;
    const reachable = Math.min(found.length, displayLimit);
    const totalPages = Math.min(maxSearchPage, Math.ceil(reachable / searchPageSize));
    const page = req.body.page ?? 1;
    const start = (page - 1) * searchPageSize;
    const people = page <= totalPages ? found.slice(start, Math.min(reachable, start + searchPageSize)) : [];
    return {
      status: 200,
      body: {
        message: 'People fetched successfully',
        payload: {
          status: 'success',
          display_limit: displayLimit,
          total_results: found.length,
          page,
          per_page: searchPageSize,
          total_pages: totalPages,
          has_next_page: page < totalPages,
          has_previous_page: page > 1,
          people: people.map((p) => p.person),
        },
      },
    };
  },

  enrich: (req, store) => {
    const body = req.body;
    const lists = (['lead_id', 'linkedin_url', 'full_name_with_company'] as const).filter((k) => body[k]);
    if (lists.length !== 1)
      throw new SandboxError(400, 1001, 'Give exactly one of lead_id, linkedin_url or full_name_with_company');
    if (body.profile_only && (body.email_type !== undefined || body.reveal_phone !== undefined))
      throw new SandboxError(400, 1001, 'profile_only cannot be combined with email_type or reveal_phone');
    const limits = rateLimitStatus(store);
    const spent = windows.find(([name]) => limits[name].remaining === 0);
    if (spent) {
      const { limit, resetAt } = limits[spent[0]];
      const resets = new Date(resetAt * 1000).toISOString();
      throw new SandboxError(
        429,
        4290,
        `Enrichment rate limit reached (${spent[0]}: ${limit}); it resets at ${resets}`,
      );
    }
    // The starts of the last day only: older ones count in no window.
    store.changeMeta((meta) => {
      meta.enrichmentStarts = [...meta.enrichmentStarts.filter((at) => at > store.now() - 86_400_000), store.now()];
    });
    const job = {
      emailType: body.email_type ?? ('work_email' as const),
      revealPhone: body.reveal_phone ?? false,
    };
    const { byId, byUrl } = store.peopleIndex();
    const people: EnrichedEntry[] = [];
    if (body.lead_id)
      for (const id of body.lead_id) people.push(enrichOne(store, byId.get(id), 'lead_id', String(id), job));
    if (body.linkedin_url)
      for (const url of body.linkedin_url)
        people.push(enrichOne(store, byUrl.get(normaliseLinkedinUrl(url)), 'linkedin_url', url, job));
    if (body.full_name_with_company)
      for (const entry of body.full_name_with_company)
        people.push(enrichOne(store, undefined, 'full_name_with_company', JSON.stringify(entry), job));
    // profile_only reveals no contact details.
    if (body.profile_only) for (const p of people) Object.assign(p, { email: undefined, phone: undefined, credits: 0 });
    const requestId = store.id();
    store.table(enrichmentsTable).put({
      requestId,
      createdAt: store.now(),
      completesAt: store.now() + store.settings.enrichmentMs,
      ...job,
      people,
    });
    return { status: 200, body: { message: 'Enrichment started', payload: { requestId } } };
  },

  enrichStatus: (req, store) => ({
    status: 200,
    body: { message: 'Enrichment status fetched', payload: jobStatus(store, jobById(store, req.params.requestId)) },
  }),

  enrichResults: (req, store) => {
    const job = jobById(store, req.params.requestId);
    const done = job.people.slice(0, processedCount(store, job));
    return {
      status: 200,
      body: {
        message: 'Enrichment results fetched',
        payload: {
          ...jobStatus(store, job),
          people: done.map((p) => ({
            id: p.personId ?? null,
            [p.by]: p.by === 'lead_id' ? Number(p.value) : p.value,
            email: p.email ?? null,
            email_type: job.emailType,
            ...(job.revealPhone ? { phone: p.phone ?? null } : {}),
            status: p.outcome,
          })),
        },
      },
    };
  },

  rateLimits: (_req, store) => ({
    status: 200,
    body: { message: 'Rate limits fetched', payload: rateLimitStatus(store) },
  }),
});

export const peopleResource = defineResource({ tables: [enrichmentsTable, revealedTable], routes });
