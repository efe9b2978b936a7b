import * as z from 'zod/mini';
import { id, nonEmpty, nullish, optional } from './schema.js';
import { endpoint } from './endpoint.js';
import { importByNameBody, prospectsEndpoints, stepId } from './prospects.js';

export const conditionSchema = z.strictObject({
  conditionId: optional(z.string()),
  name: nonEmpty,
  operation: nonEmpty,
  value: optional(z.union([z.number(), z.boolean()])),
});
export type Condition = z.infer<typeof conditionSchema>;

export const subsequenceUpdateBody = z.strictObject({
  scheduleId: optional(z.number().check(z.int(), z.positive())),
  firstStepRelativeDays: optional(z.number().check(z.int(), z.gte(1, 'firstStepRelativeDays must be at least 1'))),
  // spec.md: an empty array is silently ignored (it does not clear anything), so the sandbox takes it too.
  conditions: optional(z.array(conditionSchema)),
});
export type SubsequenceUpdate = z.infer<typeof subsequenceUpdateBody>;

export const variantSchema = z.looseObject({
  id,
  payload: nullish(z.record(z.string(), z.unknown())),
  taskNote: nullish(z.string()),
  status: nullish(z.number()),
  type: nullish(z.number()),
  executionType: nullish(z.number()),
  stepStatus: nullish(z.number()),
});
export type Variant = z.infer<typeof variantSchema>;

/** Step type codes (real-service-notes.md; spec.md leaves them unnamed). */
export const stepTypeNames: Record<number, string> = {
  1: 'Email',
  2: 'LinkedIn connection request',
  3: 'LinkedIn message',
  4: 'LinkedIn InMail',
  5: 'LinkedIn view profile',
  6: 'LinkedIn post interaction',
  9: 'Custom task',
  11: 'Call introduction',
  12: 'Call demo',
  13: 'Call follow-up',
  14: 'Call reminder',
  15: 'Call other',
  16: 'WhatsApp message',
  17: 'WhatsApp voice message',
  18: 'WhatsApp voice call',
};
export const variantStatusNames: Record<number, string> = { 0: 'inactive', 1: 'active' };

const contact = z.looseObject({
  id: optional(z.union([z.number(), z.string()])),
  email: optional(z.string()),
  isSubscribed: optional(z.boolean()),
  createdAt: optional(z.string()),
});

export const sequencesEndpoints = {
  /** The sequence-scoped import (real-service-notes.md): import-with-field-name's body with the step required; polled
   * with the prospects' import status. */
  importProspects: endpoint({
    method: 'POST',
    path: '/v1/sequences/prospects/import-with-field-name',
    replaySafe: true,
    body: z.extend(importByNameBody, { stepId }),
    response: prospectsEndpoints.importByName.response,
  }),
  step: endpoint({
    method: 'GET',
    path: '/v1/sequences/{sequenceId}/steps/{stepId}',
    replaySafe: true,
    params: z.object({ sequenceId: nonEmpty, stepId: nonEmpty }),
    response: z.union([z.array(variantSchema), z.looseObject({ payload: z.array(variantSchema) })]),
    // 400 / 1001: the step (or its sequence) is not known.
    notFound: {
      what: 'step',
      param: 'stepId',
      codes: [1001],
      hint: 'Step ids are in the web app, or in what `outreach sequences import --step` was given.',
    },
  }),
  updateSubsequence: endpoint({
    method: 'PATCH',
    path: '/v1/sequences/{sequenceId}/subsequence/{subsequenceId}',
    replaySafe: true,
    params: z.object({ sequenceId: nonEmpty, subsequenceId: nonEmpty }),
    body: subsequenceUpdateBody,
    response: z.looseObject({ message: optional(z.string()) }),
    // 400 / 1001: the subsequence, or its sequence, is not known.
    notFound: {
      what: 'subsequence',
      param: 'subsequenceId',
      in: { what: 'sequence', param: 'sequenceId' },
      codes: [1001],
      hint: 'Subsequence ids are in the web app, beside their sequence.',
    },
  }),
  subsequenceSettings: endpoint({
    method: 'GET',
    path: '/v1/sequences/subsequence/{subsequenceId}/settings',
    replaySafe: true,
    params: z.object({ subsequenceId: nonEmpty }),
    // 400 / 1001: the one id it takes is not known.
    notFound: {
      what: 'subsequence',
      param: 'subsequenceId',
      codes: [1001],
      hint: 'Subsequence ids are in the web app, beside their sequence.',
    },
    // Not shown in spec.md; what the update endpoint sets, with unknown fields passed through.
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({
        scheduleId: optional(z.number()),
        firstStepRelativeDays: optional(z.number()),
        conditions: optional(z.array(z.looseObject({ name: z.string(), operation: z.string() }))),
      }),
    }),
  }),
  addContacts: endpoint({
    method: 'POST',
    path: '/v1/sequences/{sequenceId}/contacts',
    // Adding contacts that are already in the step changes nothing.
    replaySafe: true,
    params: z.object({ sequenceId: nonEmpty }),
    body: z.strictObject({
      stepId: nonEmpty,
      contactIds: z.array(nonEmpty).check(z.minLength(1, 'at least one contact id')),
    }),
    // spec.md: payload is the contact record; the sandbox answers one per contact.
    response: z.looseObject({ message: optional(z.string()), payload: z.union([contact, z.array(contact)]) }),
    notFound: [
      { what: 'sequence', param: 'sequenceId', codes: [1001], hint: 'Sequence ids are in the web app.' },
      // 400 / 4000: the step is not one of the sequence's, or a contact is not known; the service says which.
      {
        codes: [4000],
        hint: 'Give a step of this sequence (`outreach sequences steps SEQ STEP` shows one) and prospect ids.',
      },
    ],
  }),
  status: endpoint({
    method: 'POST',
    path: '/v1/sequences/status',
    replaySafe: true,
    body: z.strictObject({
      sequenceIds: z.array(nonEmpty).check(z.minLength(1)),
      status: z.enum(['resume', 'pause']),
    }),
    response: z.looseObject({ payload: z.looseObject({ success: z.number(), failed: z.number() }) }),
  }),
  testEmail: endpoint({
    method: 'POST',
    path: '/v1/sequences/{sequenceId}/test-email',
    // Each call sends an email: never replayed once it may have reached the service.
    replaySafe: false,
    params: z.object({ sequenceId: nonEmpty }),
    body: z.strictObject({
      to: z.array(z.string().check(z.minLength(3))).check(z.minLength(1, 'at least one recipient')),
      fromEmailAccountId: nonEmpty,
      subject: nonEmpty,
      content: nonEmpty,
      preheader: optional(z.string()),
    }),
    response: z.looseObject({ message: optional(z.string()) }),
    // 400 / 1001: the sequence is not known, or the sending account is not connected to it.
    notFound: {
      what: 'email account',
      param: 'fromEmailAccountId',
      in: { what: 'sequence', param: 'sequenceId' },
      codes: [1001],
      hint: 'Give an email account connected to the sequence (in the web app, under its settings).',
    },
  }),
};

export type SubsequenceSettings = z.output<typeof sequencesEndpoints.subsequenceSettings.response>['payload'];
