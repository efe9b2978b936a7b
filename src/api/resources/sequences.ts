import type { z } from 'zod/mini';
import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { sequencesEndpoints, type SubsequenceUpdate, type Variant } from '../contract/sequences.js';

export async function stepVariants(http: HttpClient, sequenceId: string, stepId: string): Promise<Variant[]> {
  const body = await call(http, sequencesEndpoints.step, { params: { sequenceId, stepId } });
  return Array.isArray(body) ? body : body.payload;
}

export async function updateSubsequence(
  http: HttpClient,
  sequenceId: string,
  subsequenceId: string,
  body: SubsequenceUpdate,
): Promise<string | undefined> {
  return (await call(http, sequencesEndpoints.updateSubsequence, { params: { sequenceId, subsequenceId }, body }))
    .message;
}

export async function addContacts(
  http: HttpClient,
  sequenceId: string,
  stepId: string,
  contactIds: string[],
): Promise<unknown> {
  return (await call(http, sequencesEndpoints.addContacts, { params: { sequenceId }, body: { stepId, contactIds } }))
    .payload;
}

export async function setSequenceStatus(
  http: HttpClient,
  sequenceIds: string[],
  status: 'pause' | 'resume',
): Promise<{ success: number; failed: number }> {
  return (await call(http, sequencesEndpoints.status, { body: { sequenceIds, status } })).payload;
}

export async function sendTestEmail(
  http: HttpClient,
  sequenceId: string,
  body: { to: string[]; fromEmailAccountId: string; subject: string; content: string; preheader?: string },
): Promise<string | undefined> {
  return (await call(http, sequencesEndpoints.testEmail, { params: { sequenceId }, body })).message;
}

export type SubsequenceSettings = z.output<typeof sequencesEndpoints.subsequenceSettings.response>['payload'];

export async function subsequenceSettings(http: HttpClient, subsequenceId: string): Promise<SubsequenceSettings> {
  return (await call(http, sequencesEndpoints.subsequenceSettings, { params: { subsequenceId } })).payload;
}
