import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { fieldsEndpoints, type Field, type UpdateFieldBody } from '../contract/fields.js';

export async function listFields(http: HttpClient, options: { system: boolean }): Promise<Field[]> {
  const body = await call(http, fieldsEndpoints.list, { query: { systemFields: options.system ? 'true' : 'false' } });
  return body.payload;
}

export async function updateField(
  http: HttpClient,
  fieldId: string,
  body: UpdateFieldBody,
): Promise<string | undefined> {
  const answer = await call(http, fieldsEndpoints.update, { params: { fieldId }, body });
  return answer.message;
}
