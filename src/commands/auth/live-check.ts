// A cheap authenticated call that tells whether a key works against a base URL.
import type { HttpClient } from '../../api/http.js';
import { listCategories } from '../../api/resources/inbox.js';

export async function liveCheck(http: HttpClient): Promise<void> {
  await listCategories(http);
}
