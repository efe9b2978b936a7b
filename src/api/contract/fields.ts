import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const fieldSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  label: z.string(),
  fieldType: z.string().optional(),
  isDefault: z.boolean().optional(),
});
export type Field = z.infer<typeof fieldSchema>;

export const updateFieldBody = z
  .strictObject({
    label: z.string().trim().min(1, 'must not be empty').max(100).optional(),
    fallbackText: z.string().max(500).optional(),
    tags: z.array(z.string().trim().min(1, 'a tag must not be empty').max(50)).optional(),
  })
  .refine((body) => body.label !== undefined || body.fallbackText !== undefined || body.tags !== undefined, {
    message: 'at least one of label, fallbackText or tags must be given',
  });
export type UpdateFieldBody = z.infer<typeof updateFieldBody>;

export const fieldsEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v1/fields',
    replaySafe: true,
    query: z.strictObject({ systemFields: z.enum(['true', 'false']).optional() }),
    response: z.looseObject({ message: z.string().optional(), payload: z.array(fieldSchema) }),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v1/fields/{fieldId}',
    // A PATCH with full values (tags are a full replacement) ends in the same state however often it is applied.
    replaySafe: true,
    params: z.object({ fieldId: z.string().min(1) }),
    body: updateFieldBody,
    response: z.looseObject({ message: z.string().optional() }),
  }),
};
