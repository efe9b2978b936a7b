// Downloads a job's report (failed rows of an import, failed tasks of a bulk action). The key goes only to the API's
// own origin; a report link on another host (pre-signed storage) is fetched without any credentials.
import type { HttpClient } from '../api/http.js';
import { NetworkError } from '../errors.js';

export async function downloadReport(http: HttpClient, url: string, signal: AbortSignal): Promise<string> {
  const target = new URL(url, http.origin);
  if (target.origin === http.origin) {
    const response = await http.send('GET', target.toString(), { replaySafe: true });
    return typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
  }
  const response = await fetch(target, { signal });
  if (!response.ok) {
    throw new NetworkError(
      `downloading the report ${target.origin}${target.pathname}: HTTP ${response.status}`,
      'HTTP',
      true,
    );
  }
  return response.text();
}
