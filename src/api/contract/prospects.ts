import * as z from 'zod/mini';
import { id, nonEmpty, nullish, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

/** Prospects per import-with-field-name request (spec.md, Limits). */
export const maxImportRows = 100_000;

export const conflictActions = ['overwrite', 'noUpdate', 'addMissingFields', 'upsert'] as const;
export type ConflictAction = (typeof conflictActions)[number];

/** Per-row status codes of a synchronous import (spec.md, Errors). */
export const importStatusCodes: Record<number, string> = {
  10000: 'success',
  10100: 'invalid email',
  10200: 'already in another step of the same sequence',
  10300: 'custom field type mismatch',
  10400: 'nothing to update',
  10500: 'nothing to overwrite',
  10600: 'duplicate prospect',
  10700: 'bounced prospect',
  10800: 'unsubscribed prospect',
  10900: 'more than one separator',
  11000: 'already present with a different owner',
  12000: 'active in another sequence',
};

export function importStatusMeaning(code: number): string {
  return importStatusCodes[code] ?? `unknown status ${code}`;
}

export const stepId = z.pipe(z.union([nonEmpty, z.number()]), z.transform(String));

export const importByIdBody = z.strictObject({
  prospectList: z.array(z.strictObject({ fields: z.array(z.strictObject({ id: z.string(), value: z.string() })) })),
  stepId: optional(stepId),
  verifyProspects: optional(z.boolean()),
  conflictAction: z.enum(conflictActions),
});

/**
 * Up to 100,000 prospects, each an object of strings, checked in one plain loop: a zod record schema per item builds
 * a copy of every prospect, which made the sandbox spend as much CPU per import as the client.
 */
const prospectsByLabel = z.array(z.unknown()).check(
  z.superRefine((items, ctx) => {
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      let bad = typeof item !== 'object' || item === null || Array.isArray(item);
      if (!bad)
        for (const key in item as object) if (typeof (item as Record<string, unknown>)[key] !== 'string') bad = true;
      if (bad) {
        ctx.addIssue({ code: 'custom', message: 'must be an object of field label: text', path: [i], input: item });
        return;
      }
    }
  }),
) as unknown as z.ZodMiniArray<z.ZodMiniRecord<z.ZodMiniString, z.ZodMiniString>>;

/** prospectList: one object per prospect, keyed by field label (real-service-notes.md §4). */
export const importByNameBody = z.strictObject({
  prospectList: prospectsByLabel,
  conflictAction: z.enum(conflictActions),
  stepId: optional(stepId),
  tags: optional(z.array(nonEmpty)),
  verifyProspects: optional(z.boolean()),
});
export type ImportByNameBody = z.infer<typeof importByNameBody>;

const importStatusShape = z.looseObject({
  isCompleted: z.boolean(),
  failedProspectsURL: nullish(z.string()),
  reportURL: nullish(z.string()),
});
export type ImportStatus = { isCompleted: boolean; reportUrl?: string; raw: unknown };

const attribute = z.looseObject({
  attributeId: id,
  prospectId: optional(id),
  fieldRefId: optional(id),
  attributeValue: nullish(z.string()),
});
export type ProspectAttribute = z.infer<typeof attribute>;

export const prospectsEndpoints = {
  importById: endpoint({
    method: 'POST',
    path: '/v1/prospects/import',
    // Prospects are matched by email and the conflict action decides the outcome: a replay lands in the same state.
    replaySafe: true,
    body: importByIdBody,
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.array(z.looseObject({ email: z.string(), status: z.coerce.number() })),
    }),
  }),
  importByName: endpoint({
    method: 'POST',
    path: '/v1/prospects/import-with-field-name',
    replaySafe: true,
    body: importByNameBody,
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ requestId: id }),
    }),
  }),
  importStatus: endpoint({
    method: 'GET',
    path: '/v1/prospects/import-status/{requestId}',
    replaySafe: true,
    params: z.object({ requestId: nonEmpty }),
    // spec.md: {payload: {isCompleted, failedProspectsURL}}; the real service: flat {isCompleted, reportURL}.
    response: wrapped(importStatusShape, 'isCompleted'),
    notFound: {
      what: 'import request',
      param: 'requestId',
      codes: [40000],
      hint: 'Request ids are printed by `outreach prospects import` (its --json summary has them).',
    },
  }),
  verificationStatus: endpoint({
    method: 'POST',
    path: '/v1/prospects/verification-status',
    replaySafe: true,
    body: z.strictObject({
      emails: z
        .array(z.string())
        .check(z.minLength(1, 'at least one email'), z.maxLength(1000, 'at most 1000 emails per request')),
    }),
    response: z.looseObject({ payload: z.array(z.looseObject({ email: z.string(), verificationStatus: z.string() })) }),
  }),
  getAttribute: endpoint({
    method: 'GET',
    path: '/v1/prospects/attribute',
    replaySafe: true,
    query: z.strictObject({ attributeId: nonEmpty, prospectId: optional(nonEmpty) }),
    // One or more payload wrappers around the record (spec.md: "nested inside payload wrappers").
    response: wrapped(attribute, 'attributeId'),
    // 400 / 50001: "failure to fetch a prospect attribute", as spec.md lists it: an attribute (of that prospect) the
    // service does not have.
    notFound: { what: 'attribute', param: 'attributeId', codes: [50001], hint: 'Attribute ids are in the web app.' },
  }),
  setAttributes: endpoint({
    method: 'POST',
    path: '/v1/prospects/{prospectId}/attribute',
    replaySafe: true,
    params: z.object({ prospectId: nonEmpty }),
    body: z.union([
      // With `attributes`, fieldId and attributeValue are ignored (spec.md), so they may come along.
      z.strictObject({
        attributes: z.array(z.strictObject({ fieldId: nonEmpty, attributeValue: z.string() })).check(z.minLength(1)),
        fieldId: optional(z.string()),
        attributeValue: optional(z.string()),
      }),
      z.strictObject({ fieldId: nonEmpty, attributeValue: z.string() }),
    ]),
    response: z.looseObject({
      message: optional(z.string()),
      payload: z.looseObject({ results: z.array(z.looseObject({ fieldId: id, success: z.boolean() })) }),
    }),
    notFound: {
      what: 'prospect',
      param: 'prospectId',
      codes: [4000],
      hint: "Prospect ids are in an import's results.",
    },
  }),
};

export { attribute as prospectAttributeSchema, importStatusShape };
