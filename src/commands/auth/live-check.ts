// A cheap authenticated call that tells whether a key works against a base URL.
import type { HttpClient } from '../../api/http.js';
import { inboxEndpoints } from '../../api/contract/inbox.js';
import { call } from '../../api/call.js';

export async function liveCheck(http: HttpClient): Promise<void> {
  await call(http, inboxEndpoints.listCategories);
}
