import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { unwrapPayload } from '../contract/envelope.js';
import {
  prospectAttributeSchema,
  prospectsEndpoints,
  type ImportStatus,
  type ProspectAttribute,
} from '../contract/prospects.js';
import { ApiError } from '../../errors.js';

export async function getImportStatus(http: HttpClient, requestId: string): Promise<ImportStatus> {
  const body = await call(http, prospectsEndpoints.importStatus, { params: { requestId } });
  const status = ('payload' in body ? body.payload : body) as {
    isCompleted: boolean;
    failedProspectsURL?: string | null;
    reportURL?: string | null;
  };
  return {
    isCompleted: status.isCompleted,
    reportUrl: status.failedProspectsURL || status.reportURL || undefined,
    raw: body,
  };
}

export async function verificationStatus(
  http: HttpClient,
  emails: string[],
): Promise<Array<{ email: string; verificationStatus: string }>> {
  const body = await call(http, prospectsEndpoints.verificationStatus, { body: { emails } });
  return body.payload;
}

/** The attribute arrives inside one or more `payload` wrappers: unwrap until the record shows. */
export async function getAttribute(
  http: HttpClient,
  attributeId: string,
  prospectId?: string,
): Promise<ProspectAttribute> {
  const body = await call(http, prospectsEndpoints.getAttribute, { query: { attributeId, prospectId } });
  let node: unknown = body;
  for (let depth = 0; depth < 4 && node && typeof node === 'object' && !('attributeId' in node); depth++)
    node = unwrapPayload(node);
  const parsed = prospectAttributeSchema.safeParse(node);
  if (!parsed.success)
    throw new ApiError('unexpected answer from GET /v1/prospects/attribute: no attribute record in it', {
      status: 200,
      method: 'GET',
      path: '/v1/prospects/attribute',
    });
  return parsed.data;
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
