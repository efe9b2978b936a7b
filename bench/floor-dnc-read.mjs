// The do-not-contact read's floor: every page of every DNC list (100 values a page, the most spec.md allows) over one
// keep-alive node:http agent with 8 pages under way (as the CLI starts), or AHEAD, each page taken as it arrives, each
// value lower-cased and hashed into two typed arrays with the CLI's hash. No validation of the answers, no retries, no
// cached copy, no CSV.
// Usage: node floor-dnc-read.mjs BASE_URL KEY [AHEAD]
import http from 'node:http';

const [baseUrl, key, aheadArg] = process.argv.slice(2);
const ahead = Number(aheadArg ?? 8);
const agent = new http.Agent({ keepAlive: true, maxSockets: ahead });

function get(path) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${baseUrl}${path}`, { agent, headers: { 'x-api-key': key, accept: 'application/json' } });
    req.on('response', (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200
          ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
          : reject(new Error(`${path}: HTTP ${res.statusCode}`)),
      );
    });
    req.on('error', reject);
  });
}

// The CLI's hash (src/io/text-hash.ts), into a table sized for the values: 8 bytes a value.
let size = 0;
let hi = new Uint32Array(0);
let lo = new Uint32Array(0);
function add(text) {
  let a = 0x9747b28c;
  let b = 0x1b873593;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x5bd1e995);
    a ^= a >>> 13;
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  hi[size] = Math.imul(a ^ (a >>> 15), 0x27d4eb2d);
  lo[size++] = Math.imul(b ^ (b >>> 15), 0x27d4eb2d);
}

const listsPage = await get('/v1/dnc?page=1&pageSize=100');
const lists = listsPage.payload.payload; // the sandbox's shape of GET /v1/dnc (spec.md: not shown)
const total = lists.reduce((n, l) => n + Number(l.numberOfItems ?? 0), 0);
hi = new Uint32Array(total);
lo = new Uint32Array(total);
for (const list of lists) {
  const page = (n) => get(`/v1/dnc/${list.id}?type=all&pageSize=100&page=${n}`);
  const first = await page(1);
  const pages = first.payload.meta.totalPages;
  for (const item of first.payload.dncDetails) add(item.value.toLowerCase());
  // Each page taken as it arrives, whatever its place: a hash set does not care about order.
  let next = 2;
  const worker = async () => {
    while (next <= pages) {
      const body = await page(next++);
      for (const item of body.payload.dncDetails) add(item.value.toLowerCase());
    }
  };
  await Promise.all(Array.from({ length: ahead }, worker));
}
agent.destroy();
if (size !== total) throw new Error(`read ${size} values, the lists say ${total}`);
