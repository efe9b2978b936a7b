import type { HttpClient } from '../http.js';
import { call, callWithBody } from '../call.js';
import { prospectsEndpoints, type ImportStatus } from '../contract/prospects.js';

export async function getImportStatus(http: HttpClient, requestId: string): Promise<ImportStatus> {
  const { data: status, body } = await callWithBody(http, prospectsEndpoints.importStatus, { params: { requestId } });
  return {
    isCompleted: status.isCompleted,
    reportUrl: status.failedProspectsURL || status.reportURL || undefined,
    raw: body,
  };
}

export async function setAttributes(
  http: HttpClient,
  prospectId: string,
  attributes: Array<{ fieldId: string; attributeValue: string }>,
): Promise<Array<{ fieldId: string; success: boolean }>> {
  // One field uses the single form, several the multiple form (spec.md).
  const body = attributes.length === 1 ? attributes[0]! : { attributes };
  const answer = await call(http, prospectsEndpoints.setAttributes, { params: { prospectId }, body });
  return answer.payload.results;
}
