// The floor: the least work any client must do, done as fast as a careful engineer would. csv-parse streams the
// file, read in batches; each row's JSON (keyed by the header) is added to a 64 KiB buffer that is written to the body of the current
// request when full; requests hold the CLI's chunk sizes (2,000 rows, then growing by half up to 40,000) and two are under
// way at once (the CLI's default concurrency). No checks, no mapping, no journal, no reports.
// Usage: node floor-import.mjs FILE BASE_URL KEY
import { createReadStream } from 'node:fs';
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse';
import { postChunk } from './post-chunk.mjs';
import { recordBatches } from './record-batches.mjs';

const [file, baseUrl, key] = process.argv.slice(2);
const chunkRows = (index) => Math.min(40_000, Math.round(2_000 * 1.5 ** index));
let chunks = 0;
const concurrency = 2;
const flushBytes = 64 * 1024;
const inFlight = new Set();
let header;
let body;
let buffered = '';
let inBody = 0;
let total = 0;

function open() {
  body = new PassThrough();
  buffered = '{"conflictAction":"noUpdate","prospectList":[';
  inBody = 0;
  const answer = postChunk(baseUrl, key, body);
  inFlight.add(answer);
  answer.finally(() => inFlight.delete(answer));
}

async function flush() {
  if (!body.write(buffered)) await new Promise((r) => body.once('drain', r));
  buffered = '';
}

async function close() {
  body.end(`${buffered}]}`);
  body = undefined;
  // Two chunks under way: the next one starts while this one is answered.
  while (inFlight.size >= concurrency) await Promise.race(inFlight);
}

const parser = createReadStream(file).pipe(parse({ bom: true }));
for await (const batch of recordBatches(parser)) {
  for (const record of batch) {
    if (!header) {
      header = record;
      continue;
    }
    if (!body) open();
    const row = {};
    for (let i = 0; i < header.length; i++) row[header[i]] = record[i];
    buffered += (inBody ? ',' : '') + JSON.stringify(row);
    if (buffered.length >= flushBytes) await flush();
    inBody++;
    total++;
    if (inBody === chunkRows(chunks)) {
      chunks++;
      await close();
    }
  }
}
if (body) await close();
await Promise.all(inFlight);
console.error(`floor: ${total} rows`);
