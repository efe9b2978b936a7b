// Downloads a job's report (failed rows of an import, failed tasks of a bulk action). The key goes only to the API's
// own origin; a report link on another host (pre-signed storage) is fetched without it. Either way through the one
// HTTP client: deadline, retries of a read, --debug, and a size cap.
import type { HttpClient } from '../api/http.js';

/** A failed-rows report of 200,000 rows is ~30 MB; more than this is not a report. */
const maxReportBytes = 512 * 2 ** 20;

export async function downloadReport(http: HttpClient, url: string): Promise<string> {
  const target = new URL(url, http.origin);
  const response = await http.send('GET', target.toString(), {
    replaySafe: true,
    withoutKey: target.origin !== http.origin,
    maxBytes: maxReportBytes,
  });
  return typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '');
}
