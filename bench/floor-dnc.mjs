// The DNC floor: csv-parse streams the file (read in batches) and the raw values are posted 5,000 at a time (the CLI's chunk size)
// with four requests under way (its default concurrency), to the same endpoint. No normalising, no checks, no
// duplicates dropped, no journal. Usage: node floor-dnc.mjs FILE BASE_URL KEY
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { request } from 'undici';
import { recordBatches } from './record-batches.mjs';

const [file, baseUrl, key] = process.argv.slice(2);
const chunkSize = 5000;
const concurrency = 4;
const inFlight = new Set();
let batch = [];
let total = 0;

async function post(items) {
  const res = await request(`${baseUrl}/v1/dnc`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ dncListId: 'dncGlobal1', items }),
  });
  await res.body.text();
  if (res.statusCode !== 201) throw new Error(`HTTP ${res.statusCode}`);
}

async function send() {
  const answer = post(batch);
  batch = [];
  inFlight.add(answer);
  answer.finally(() => inFlight.delete(answer));
  while (inFlight.size >= concurrency) await Promise.race(inFlight);
}

let header = true;
for await (const records of recordBatches(createReadStream(file).pipe(parse({ relax_column_count: true })))) {
  for (const [value] of records) {
    if (header) {
      header = false;
      continue;
    }
    batch.push(value);
    total++;
    if (batch.length === chunkSize) await send();
  }
}
if (batch.length) await send();
await Promise.all(inFlight);
console.error(`floor: ${total} values`);
