// The server-bound limit of an import: the chunk bodies built beforehand (the CLI's chunk sizes: 2,000 rows, growing
// by half up to 40,000; each row's JSON keyed by the header), read into memory, then POSTed by a minimal client at the CLI's
// concurrency (2) to the same sandbox. Whatever the CLI does beyond this is its own cost; what is left is the
// service's. `prepare` writes the bodies (not timed); `send` is what the benchmark times.
// Usage: node ceiling-import.mjs prepare FILE DIR | node ceiling-import.mjs send DIR BASE_URL KEY
import { createReadStream, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse';
import { postChunk } from './post-chunk.mjs';
import { recordBatches } from './record-batches.mjs';

const [mode, ...args] = process.argv.slice(2);
const chunkRows = (index) => Math.min(40_000, Math.round(2_000 * 1.5 ** index));

if (mode === 'prepare') {
  const [file, dir] = args;
  mkdirSync(dir, { recursive: true });
  let header;
  let rows = [];
  let chunks = 0;
  const write = () => {
    const body = `{"conflictAction":"noUpdate","prospectList":[${rows.join(',')}]}`;
    writeFileSync(join(dir, `chunk-${String(chunks).padStart(4, '0')}.json`), body);
    chunks++;
    rows = [];
  };
  for await (const batch of recordBatches(createReadStream(file).pipe(parse({ bom: true })))) {
    for (const record of batch) {
      if (!header) {
        header = record;
        continue;
      }
      const row = {};
      for (let i = 0; i < header.length; i++) row[header[i]] = record[i];
      rows.push(JSON.stringify(row));
      if (rows.length === chunkRows(chunks)) write();
    }
  }
  if (rows.length) write();
} else if (mode === 'send') {
  const [dir, baseUrl, key] = args;
  const bodies = readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name)));
  const inFlight = new Set();
  for (const body of bodies) {
    const answer = postChunk(baseUrl, key, body);
    inFlight.add(answer);
    answer.finally(() => inFlight.delete(answer));
    while (inFlight.size >= 2) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
} else {
  console.error('usage: ceiling-import.mjs prepare FILE DIR | send DIR BASE_URL KEY');
  process.exit(2);
}
