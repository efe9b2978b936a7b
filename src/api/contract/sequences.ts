import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const conditionSchema = z.strictObject({
  conditionId: z.string().optional(),
  name: z.string().min(1),
  operation: z.string().min(1),
  value: z.union([z.number(), z.boolean()]).optional(),
});
export type Condition = z.infer<typeof conditionSchema>;

export const subsequenceUpdateBody = z.strictObject({
  scheduleId: z.number().int().positive().optional(),
  firstStepRelativeDays: z.number().int().min(1, 'firstStepRelativeDays must be at least 1').optional(),
  // spec.md: an empty array is silently ignored (it does not clear anything), so the sandbox takes it too.
  conditions: z.array(conditionSchema).optional(),
});
export type SubsequenceUpdate = z.infer<typeof subsequenceUpdateBody>;

export const variantSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  payload: z.record(z.string(), z.unknown()).nullish(),
  taskNote: z.string().nullish(),
  status: z.number().nullish(),
  type: z.number().nullish(),
  executionType: z.number().nullish(),
  stepStatus: z.number().nullish(),
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

export const sequencesEndpoints = {
  step: endpoint({
    method: 'GET',
    path: '/v1/sequences/{sequenceId}/steps/{stepId}',
    replaySafe: true,
    params: z.object({ sequenceId: z.string().min(1), stepId: z.string().min(1) }),
    response: z.union([z.array(variantSchema), z.looseObject({ payload: z.array(variantSchema) })]),
  }),
  updateSubsequence: endpoint({
    method: 'PATCH',
    path: '/v1/sequences/{sequenceId}/subsequence/{subsequenceId}',
    replaySafe: true,
    params: z.object({ sequenceId: z.string().min(1), subsequenceId: z.string().min(1) }),
    body: subsequenceUpdateBody,
    response: z.looseObject({ message: z.string().optional() }),
  }),
  subsequenceSettings: endpoint({
    method: 'GET',
    path: '/v1/sequences/subsequence/{subsequenceId}/settings',
    replaySafe: true,
    params: z.object({ subsequenceId: z.string().min(1) }),
    response: z.unknown(),
  }),
  addContacts: endpoint({
    method: 'POST',
    path: '/v1/sequences/{sequenceId}/contacts',
    // Adding contacts that are already in the step changes nothing.
    replaySafe: true,
    params: z.object({ sequenceId: z.string().min(1) }),
    body: z.strictObject({
      stepId: z.string().min(1),
      contactIds: z.array(z.string().min(1)).min(1, 'at least one contact id'),
    }),
    response: z.looseObject({ message: z.string().optional(), payload: z.unknown() }),
  }),
  status: endpoint({
    method: 'POST',
    path: '/v1/sequences/status',
    replaySafe: true,
    body: z.strictObject({ sequenceIds: z.array(z.string().min(1)).min(1), status: z.enum(['resume', 'pause']) }),
    response: z.looseObject({ payload: z.looseObject({ success: z.number(), failed: z.number() }) }),
  }),
  testEmail: endpoint({
    method: 'POST',
    path: '/v1/sequences/{sequenceId}/test-email',
    // Each call sends an email: never replayed once it may have reached the service.
    replaySafe: false,
    params: z.object({ sequenceId: z.string().min(1) }),
    body: z.strictObject({
      to: z.array(z.string().min(3)).min(1, 'at least one recipient'),
      fromEmailAccountId: z.string().min(1),
      subject: z.string().min(1),
      content: z.string().min(1),
      preheader: z.string().optional(),
    }),
    response: z.looseObject({ message: z.string().optional() }),
  }),
};
