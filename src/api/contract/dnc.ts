import * as z from 'zod/mini';
import { count, id, listOf, nonEmpty, nullish, optional, pageMeta } from './schema.js';
import { endpoint } from './endpoint.js';

export const dncTypes = ['all', 'email', 'domain'] as const;
export const maxDncPageSize = 100;

const pageQuery = {
  page: optional(count('page')),
  pageSize: optional(count('pageSize', 1, maxDncPageSize)),
};

export const dncItemQuery = z.strictObject({
  ...pageQuery,
  search: optional(z.string()),
  type: optional(z.enum(dncTypes)),
});
export type DncItemQuery = z.infer<typeof dncItemQuery>;

export const dncItemSchema = z.looseObject({
  id: optional(id),
  value: z.string(),
  type: optional(z.string()),
  createdAt: nullish(z.string()),
  addedBy: nullish(z.string()),
});
export type DncItem = z.infer<typeof dncItemSchema>;

/** A list as either shape names it: numberOfItems or total (a string in the real service), addedBy or createdBy. */
export const dncListSchema = z.looseObject({
  id,
  name: optional(z.string()),
  numberOfItems: optional(z.union([z.number(), z.string()])),
  total: optional(z.union([z.number(), z.string()])),
  createdAt: nullish(z.string()),
  updatedAt: nullish(z.string()),
  addedBy: nullish(z.string()),
  createdBy: nullish(z.string()),
  dncItems: optional(z.array(dncItemSchema)),
});
export type DncList = z.infer<typeof dncListSchema>;

export const dncEndpoints = {
  lists: endpoint({
    method: 'GET',
    path: '/v1/dnc',
    replaySafe: true,
    query: z.strictObject({
      ...pageQuery,
      search: optional(z.string()),
      sort: optional(z.enum(['ASC', 'DESC'])),
      sortBy: optional(z.enum(['total', 'updatedAt'])),
    }),
    // The real service: {payload: {message, payload: [...]}}; a payload array or payload.dncList is read too.
    response: listOf(dncListSchema, ['dncList']),
  }),
  show: endpoint({
    method: 'GET',
    path: '/v1/dnc/{dncListId}',
    replaySafe: true,
    params: z.object({ dncListId: nonEmpty }),
    query: dncItemQuery,
    response: listOf(dncItemSchema, ['dncDetails']),
    // The service answers an unknown list with 400, code 40004 (spec.md).
    notFound: {
      what: 'DNC list',
      param: 'dncListId',
      codes: [40004],
      hint: 'See the lists with `outreach dnc lists`.',
    },
  }),
  search: endpoint({
    method: 'GET',
    path: '/v1/dnc/item/search',
    replaySafe: true,
    query: dncItemQuery,
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ dncList: z.array(dncListSchema), meta: optional(pageMeta) }),
    }),
  }),
  add: endpoint({
    method: 'POST',
    path: '/v1/dnc',
    // Items are de-duplicated per list: a replayed chunk adds nothing new.
    replaySafe: true,
    body: z.strictObject({
      items: z.array(z.string()).check(z.minLength(1, 'at least one item')),
      dncListId: z.string({ error: 'dncListId must be a string' }).check(z.minLength(1)),
    }),
    // Not shown in spec.md; the sandbox answers what it added, kept as unknown fields.
    response: z.looseObject({ message: optional(z.string()), payload: optional(z.unknown()) }),
    notFound: {
      what: 'DNC list',
      param: 'dncListId',
      codes: [40004],
      hint: 'See the lists with `outreach dnc lists`.',
    },
  }),
  blacklistDomains: endpoint({
    method: 'POST',
    path: '/v1/blacklist-domains',
    // Adding a domain that is there already is refused (40002): not safe to replay blindly.
    replaySafe: false,
    body: z.strictObject({ domains: z.string().check(z.minLength(1, 'at least one domain')) }),
    response: z.looseObject({ payload: optional(z.array(z.string())) }),
  }),
};
