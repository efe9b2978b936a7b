// Downloads a job's report (failed rows of an import, failed tasks of a bulk action) to a temporary file and hands
// its path over, through the one HTTP client: deadline, retries of a read, --debug, a size cap. The key goes only to
// the API's own origin; a report link on another host (pre-signed storage) is fetched without it.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpClient } from '../api/http.js';
import { tempDir, tempName } from './temp-files.js';

/** A failed-rows report of 200,000 rows is ~30 MB; more than this is not a report. */
const maxReportBytes = 512 * 2 ** 20;

/** Streams the report at `url` to disk, runs `use` on the file, and removes it whatever happens. */
export async function withReport<T>(http: HttpClient, url: string, use: (path: string) => Promise<T>): Promise<T> {
  const target = new URL(url, http.origin);
  const path = join(tempDir(), tempName('report', '.csv'));
  try {
    await http.send('GET', target.toString(), {
      replaySafe: true,
      withoutKey: target.origin !== http.origin,
      maxBytes: maxReportBytes,
      saveTo: path,
    });
    return await use(path);
  } finally {
    await rm(path, { force: true });
  }
}
