import * as z from 'zod/mini';
import { id, nonEmpty, optional } from './schema.js';
import { endpoint } from './endpoint.js';

export const fieldSchema = z.looseObject({
  id,
  label: z.string(),
  fieldType: optional(z.string()),
  isDefault: optional(z.boolean()),
});
export type Field = z.infer<typeof fieldSchema>;

const trimmed = z.pipe(
  z.string(),
  z.transform((value) => value.trim()),
);

export const updateFieldBody = z
  .strictObject({
    label: optional(trimmed.check(z.minLength(1, 'must not be empty'), z.maxLength(100))),
    fallbackText: optional(z.string().check(z.maxLength(500))),
    tags: optional(z.array(trimmed.check(z.minLength(1, 'a tag must not be empty'), z.maxLength(50)))),
  })
  .check(
    z.refine(
      (body) => body.label !== undefined || body.fallbackText !== undefined || body.tags !== undefined,
      'at least one of label, fallbackText or tags must be given',
    ),
  );
export type UpdateFieldBody = z.infer<typeof updateFieldBody>;

export const fieldsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v1/fields',
    replaySafe: true,
    query: z.strictObject({ systemFields: optional(z.enum(['true', 'false'])) }),
    response: z.looseObject({ message: optional(z.string()), payload: z.array(fieldSchema) }),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/fields/{fieldId}',
    // A PATCH with full values (tags are a full replacement) ends in the same state however often it is applied.
    replaySafe: true,
    params: z.object({ fieldId: nonEmpty }),
    body: updateFieldBody,
    response: z.looseObject({ message: optional(z.string()) }),
    // 400 / 1001 "Invalid field id" (a refused key is told apart before this is read).
    notFound: { what: 'field', param: 'fieldId', codes: [1001], hint: 'See the ids with `outreach fields list`.' },
  }),
};
