// The DNC floor: csv-parse streams the file and the raw values are posted 5,000 at a time, one request after
// another, to the same endpoint. No normalising, no checks, no journal. Usage: node floor-dnc.mjs FILE BASE_URL KEY
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { request } from 'undici';

const [file, baseUrl, key] = process.argv.slice(2);
let batch = [];
let total = 0;
async function post() {
  const res = await request(`${baseUrl}/v1/dnc`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ dncListId: 'dncGlobal1', items: batch }),
  });
  await res.body.text();
  if (res.statusCode !== 201) throw new Error(`HTTP ${res.statusCode}`);
  batch = [];
}
let header = true;
for await (const [value] of createReadStream(file).pipe(parse({ relax_column_count: true }))) {
  if (header) {
    header = false;
    continue;
  }
  batch.push(value);
  total++;
  if (batch.length === 5000) await post();
}
if (batch.length) await post();
console.error(`floor: ${total} values`);
