// The floor: the least work any client must do. csv-parse streams the file; each row's JSON (keyed by the header)
// goes straight into the body of a request of 100,000 rows, posted to the same endpoint. No checks, no mapping,
// no journal, no reports. Usage: node floor-import.mjs FILE BASE_URL KEY
import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse';
import { request } from 'undici';

const [file, baseUrl, key] = process.argv.slice(2);
const chunkRows = 100_000;
let header;
let body;
let inBody = 0;
let pending;
let total = 0;

function open() {
  body = new PassThrough();
  body.write('{"conflictAction":"noUpdate","prospectList":[');
  inBody = 0;
  pending = request(`${baseUrl}/v1/prospects/import-with-field-name`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body,
  }).then(async (res) => {
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  });
}

async function close() {
  body.end(']}');
  await pending;
}

const parser = createReadStream(file).pipe(parse({ bom: true }));
for await (const record of parser) {
  if (!header) {
    header = record;
    continue;
  }
  if (!body) open();
  const row = {};
  for (let i = 0; i < header.length; i++) row[header[i]] = record[i];
  const json = JSON.stringify(row);
  if (!body.write(inBody ? `,${json}` : json)) await new Promise((r) => body.once('drain', r));
  inBody++;
  total++;
  if (inBody === chunkRows) {
    await close();
    body = undefined;
  }
}
if (body) await close();
console.error(`floor: ${total} rows`);
