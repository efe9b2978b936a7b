import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { inboxEndpoints, type InboxCategory } from '../contract/inbox.js';

export async function listCategories(http: HttpClient): Promise<InboxCategory[]> {
  const body = await call(http, inboxEndpoints.listCategories);
  return body.payload;
}
