// The baseline for `people search --all --csv`: what a careful script does to page the same endpoint. node:http
// with one keep-alive connection (fetch takes ~100 ms more to load on Node 20), pages in turn until has_next_page is
// false, the same CSV columns (quoted where needed), one write per page.
// Usage: node baseline-people.mjs BASE_URL KEY > people.csv
import http from 'node:http';

const [baseUrl, key] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const post = (body) =>
  new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      `${baseUrl}/v1/search/people`,
      {
        method: 'POST',
        agent,
        headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(Buffer.concat(chunks)))
            : reject(new Error(`HTTP ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
const header =
  'Person Id,First Name,Last Name,Job Title,Company,Company Website,LinkedIn URL,Department,City,State,Country,Decision Maker';
const cell = (v) => {
  const text = v === null || v === undefined ? '' : typeof v === 'boolean' ? (v ? 'yes' : 'no') : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
process.stdout.write(`${header}\n`);
for (let page = 1; ; page++) {
  const { payload } = await post({ page });
  if (Array.isArray(payload)) break;
  let out = '';
  for (const p of payload.people) {
    const words = (p.full_name ?? '').trim().split(/\s+/);
    const l = p.location ?? {};
    out += [p.id, words[0], words.slice(1).join(' '), p.job_title, p.company_name, p.company_website, p.linkedin_url,
      p.department, l.city, l.state, l.country, p.decision_maker].map(cell).join(',') + '\n'; // prettier-ignore
  }
  process.stdout.write(out);
  if (!payload.has_next_page) break;
}
agent.destroy();
