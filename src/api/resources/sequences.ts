import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { sequencesEndpoints, type Variant } from '../contract/sequences.js';

export async function stepVariants(http: HttpClient, sequenceId: string, stepId: string): Promise<Variant[]> {
  const body = await call(http, sequencesEndpoints.step, { params: { sequenceId, stepId } });
  return Array.isArray(body) ? body : body.payload;
}
