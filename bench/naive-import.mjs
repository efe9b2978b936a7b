// A naive script: read the whole file, parse it synchronously, post 100,000-row chunks to the same endpoint.
// Usage: node naive-import.mjs FILE BASE_URL KEY
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

const [file, baseUrl, key] = process.argv.slice(2);
const rows = parse(readFileSync(file), { bom: true, columns: true });
for (let i = 0; i < rows.length; i += 100_000) {
  const res = await fetch(`${baseUrl}/v1/prospects/import-with-field-name`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ conflictAction: 'noUpdate', prospectList: rows.slice(i, i + 100_000) }),
  });
  if (res.status !== 201) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
}
console.error(`naive: ${rows.length} rows`);
