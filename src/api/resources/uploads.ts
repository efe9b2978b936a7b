// One file, sent as the multipart field `file`. The body is read from the file as it is sent (a file-backed Blob),
// never whole, so a 25 MB attachment costs no more memory than a small one.
import { openAsBlob } from 'node:fs';
import { basename } from 'node:path';
import type { z } from 'zod/mini';
import type { HttpClient } from '../http.js';
import type { Endpoint } from '../contract/endpoint.js';
import { ApiError } from '../../errors.js';

export async function uploadFile<E extends Endpoint>(
  http: HttpClient,
  e: E,
  path: string,
): Promise<z.output<E['response']>> {
  const form = new FormData();
  form.set('file', await openAsBlob(path), basename(path));
  const response = await http.send(e.method, e.path, { form, replaySafe: e.replaySafe });
  const parsed = e.response.safeParse(response.body);
  if (!parsed.success)
    throw new ApiError(`unexpected answer from ${e.method} ${e.path}: no id`, {
      status: response.status,
      method: e.method,
      path: e.path,
    });
  return parsed.data as z.output<E['response']>;
}
