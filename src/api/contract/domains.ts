// Domains, mailboxes and profile pictures (spec.md "Domains"; purchase body from real-service-notes.md).
import * as z from 'zod/mini';
import { id, listOf, nonEmpty, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

/** Mailbox profile pictures: PNG, JPG or GIF of at most 1 MB (spec.md). */
export const maxPictureBytes = 2 ** 20;

export const domainStatuses = ['inProgress', 'active', 'deleted', 'failed', 'expired'] as const;

export const domainSchema = z.looseObject({
  id,
  name: optional(z.string()),
  status: z.string(),
  mailboxes: optional(
    z.array(z.looseObject({ email: optional(z.string()), profilePicId: optional(z.union([z.number(), z.string()])) })),
  ),
});
export type Domain = z.infer<typeof domainSchema>;

export const domainPurchaseBody = z.strictObject({
  domainOwnerFirstname: z.string().check(z.minLength(1), z.maxLength(50)),
  domainOwnerLastname: z.string().check(z.minLength(1), z.maxLength(50)),
  companyName: nonEmpty,
  address: nonEmpty,
  city: optional(z.string()),
  state: optional(z.string()),
  country: z.string().check(z.regex(/^[A-Z]{2}$/, 'must be an ISO 3166 alpha-2 code like US')),
  zipcode: nonEmpty,
  phoneNumber: z.string().check(z.regex(/^\+[1-9]\d{6,14}$/, 'must be E.164, like +14155550100')),
  emailServiceProvider: z.enum(['Google', 'Microsoft', 'Azure']),
  planType: optional(z.enum(['quarterly', 'annualFlexi', 'annualFixed'])),
  domains: z
    .array(
      z.strictObject({
        name: nonEmpty,
        redirectUrl: optional(z.string()),
        mailboxes: z.array(
          z.strictObject({ email: nonEmpty, firstname: nonEmpty, lastname: nonEmpty, profilePicId: z.number() }),
        ),
      }),
    )
    .check(z.minLength(1)),
});

export const domainsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v1/domain',
    replaySafe: true,
    query: z.strictObject({ search: optional(z.string()), order: optional(z.enum(['Asc', 'Desc'])) }),
    // Not shown in spec.md: a list of domains, bare, in payload, or under `domains`.
    response: listOf(domainSchema, ['domains']),
  }),
  purchase: endpoint({
    method: 'POST',
    path: '/v1/domain',
    // A purchase spends money: never replayed once it may have reached the service.
    replaySafe: false,
    body: domainPurchaseBody,
    response: z.looseObject({ message: optional(z.string()), payload: optional(z.unknown()) }),
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/v1/domain/{id}',
    // Deleting a deleted domain changes nothing.
    replaySafe: true,
    params: z.object({ id: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()) }),
  }),
  revoke: endpoint({
    method: 'POST',
    path: '/v1/domain/{id}/revoke',
    // A second revoke of a domain already active is rejected, not applied twice.
    replaySafe: true,
    params: z.object({ id: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()) }),
  }),
  uploadPicture: endpoint({
    method: 'POST',
    path: '/v1/domain/profile-picture/upload',
    // Each upload stores another picture.
    replaySafe: false,
    response: wrapped(z.looseObject({ id }), 'id'),
  }),
};
