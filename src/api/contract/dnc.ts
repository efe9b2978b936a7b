import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const dncTypes = ['all', 'email', 'domain'] as const;
export const maxDncPageSize = 100;

const pageQuery = {
  page: z.coerce.number({ error: 'page must be a number' }).int().min(1, 'page must be at least 1').optional(),
  pageSize: z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(maxDncPageSize, `pageSize must be at most ${maxDncPageSize}`)
    .optional(),
};

export const dncItemQuery = z.strictObject({
  ...pageQuery,
  search: z.string().optional(),
  type: z.enum(dncTypes).optional(),
});
export type DncItemQuery = z.infer<typeof dncItemQuery>;

export const dncItemSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String).optional(),
  value: z.string(),
  type: z.string().optional(),
  createdAt: z.string().nullish(),
  addedBy: z.string().nullish(),
});
export type DncItem = z.infer<typeof dncItemSchema>;

/** A list as either shape names it: numberOfItems or total (a string in the real service), addedBy or createdBy. */
export const dncListSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().optional(),
  numberOfItems: z.union([z.number(), z.string()]).optional(),
  total: z.union([z.number(), z.string()]).optional(),
  createdAt: z.string().nullish(),
  updatedAt: z.string().nullish(),
  addedBy: z.string().nullish(),
  createdBy: z.string().nullish(),
  dncItems: z.array(dncItemSchema).optional(),
});
export type DncList = z.infer<typeof dncListSchema>;

export const pageMetaSchema = z.looseObject({
  totalItems: z.number().optional(),
  currentPage: z.number().optional(),
  itemsPerPage: z.number().optional(),
  totalPages: z.number().optional(),
  itemCount: z.number().optional(),
});

export const dncEndpoints = {
  lists: endpoint({
    method: 'GET',
    path: '/v1/dnc',
    replaySafe: true,
    query: z.strictObject({
      ...pageQuery,
      search: z.string().optional(),
      sort: z.enum(['ASC', 'DESC']).optional(),
      sortBy: z.enum(['total', 'updatedAt']).optional(),
    }),
    response: z.unknown(),
  }),
  show: endpoint({
    method: 'GET',
    path: '/v1/dnc/{dncListId}',
    replaySafe: true,
    params: z.object({ dncListId: z.string().min(1) }),
    query: dncItemQuery,
    response: z.looseObject({
      payload: z.looseObject({
        message: z.string().optional(),
        dncDetails: z.array(dncItemSchema),
        meta: pageMetaSchema.optional(),
      }),
    }),
  }),
  search: endpoint({
    method: 'GET',
    path: '/v1/dnc/item/search',
    replaySafe: true,
    query: dncItemQuery,
    response: z.looseObject({
      message: z.string().optional(),
      payload: z.looseObject({ dncList: z.array(dncListSchema), meta: pageMetaSchema.optional() }),
    }),
  }),
  add: endpoint({
    method: 'POST',
    path: '/v1/dnc',
    // Items are de-duplicated per list: a replayed chunk adds nothing new.
    replaySafe: true,
    body: z.strictObject({
      items: z.array(z.string()).min(1, 'at least one item'),
      dncListId: z.string({ error: 'dncListId must be a string' }).min(1),
    }),
    response: z.unknown(),
  }),
  blacklistDomains: endpoint({
    method: 'POST',
    path: '/v1/blacklist-domains',
    // Adding a domain that is there already is refused (40002): not safe to replay blindly.
    replaySafe: false,
    body: z.strictObject({ domains: z.string().min(1, 'at least one domain') }),
    response: z.looseObject({ payload: z.array(z.string()).optional() }),
  }),
};
