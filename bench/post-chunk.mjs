// One import chunk POSTed to import-with-field-name by a minimal client (undici), failing on anything but 201: what the
// floor and the server-bound limit both send.
import { request } from 'undici';

export function postChunk(baseUrl, key, body) {
  return request(`${baseUrl}/v1/prospects/import-with-field-name`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body,
  }).then(async (res) => {
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  });
}
