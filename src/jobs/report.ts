// Downloads a job's report (failed rows of an import, failed tasks of a bulk action) to a temporary file and hands
// its path over, through the one HTTP client: deadline, retries of a read, --debug, a size cap. The key goes only to
// the API's own origin; a report link on another host (pre-signed storage) is fetched without it, and only over https
// (plain http only to this machine): a link elsewhere is refused before any request.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpClient } from '../api/http.js';
import { RefusedLink } from '../errors.js';
import { isFollowableLink } from '../loopback.js';
import { tempDir, tempName } from './temp-files.js';

/** A failed-rows report of 200,000 rows is ~30 MB; more than this is not a report. */
export const maxReportBytes = 512 * 2 ** 20;

/** The report link as a URL (a relative one is on the API's origin), or RefusedLink: not https, and not http to this
 * machine or to the API's own origin. Nothing is sent anywhere. */
export function reportTarget(http: Pick<HttpClient, 'origin'>, url: string): URL {
  let target: URL;
  try {
    target = new URL(url, http.origin);
  } catch {
    throw new RefusedLink(url, '', 'report link');
  }
  if (target.origin !== http.origin && !isFollowableLink(target))
    throw new RefusedLink(target.href, target.host, 'report link');
  return target;
}

/** Streams the report at `url` to disk, runs `use` on the file, and removes it whatever happens. `maxBytes` lowers
 * the cap for a report read whole. */
export async function withReport<T>(
  http: HttpClient,
  url: string,
  use: (path: string) => Promise<T>,
  maxBytes = maxReportBytes,
): Promise<T> {
  const target = reportTarget(http, url);
  const path = join(tempDir(), tempName('report', '.csv'));
  try {
    await http.send('GET', target.toString(), {
      replaySafe: true,
      withoutKey: target.origin !== http.origin,
      maxBytes,
      saveTo: path,
    });
    return await use(path);
  } finally {
    await rm(path, { force: true });
  }
}
