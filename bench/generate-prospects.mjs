// Writes a realistic prospect CSV: accented names, quoted fields with commas, quotes and newlines, custom fields.
// About 160 bytes a row: 1,000,000 rows is about 160 MB. Deterministic for a given row count.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

const first = [
  'Amélie',
  'Björn',
  'Chloé',
  'Dmitri',
  'Eun-ji',
  'François',
  'Giulia',
  'Hannah',
  'Ibrahim',
  'José',
  'Katarzyna',
  'Liam',
  'María',
  'Søren',
  'Zoë',
];
const last = [
  'Dubois',
  'Lindqvist',
  'Moreau',
  'Ivanov',
  'Kim',
  'Lefèvre',
  'Rossi',
  'Schmidt',
  "O'Brien",
  'García',
  'Nowak',
  'Jørgensen',
  'Côté',
  'Yılmaz',
];
const companies = [
  'Acme, Inc.',
  'Globex',
  'Initech',
  'Umbrella "Labs"',
  'Hooli',
  'Vandelay Industries',
  'Stark Industries',
  'Wayne Enterprises',
];
const titles = ['VP Sales', 'Head of Growth', 'CTO', 'Founder & CEO', 'Sales Ops Manager', 'Directeur commercial'];
const countries = ['France', 'Germany', 'Spain', 'Sweden', 'United States', 'Brasil'];
const cities = ['Paris', 'München', 'Málaga', 'Göteborg', 'New York, NY', 'São Paulo'];

function quote(value) {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export async function generateProspects(path, rows) {
  const out = createWriteStream(path);
  const header = [
    'First Name',
    'Last Name',
    'Email',
    'Company',
    'Job Title',
    'Phone Number',
    'Country',
    'City',
    'Website',
    'Seats',
    'Pain Point',
    'Icebreaker',
  ];
  let buffer = `${header.join(',')}\n`;
  for (let i = 0; i < rows; i++) {
    const f = first[i % first.length];
    const l = last[(i * 7) % last.length];
    const company = companies[i % companies.length];
    const pain =
      i % 5 === 0 ? 'Too many tools,\nnot enough "time"' : i % 3 === 0 ? 'Pipeline, pipeline' : 'Slow replies';
    const fields = [
      f,
      l,
      `prospect${i}@company${i % 9973}.example`,
      company,
      titles[i % titles.length],
      `+33 6 ${String(10000000 + i).slice(0, 8)}`,
      countries[i % countries.length],
      cities[i % cities.length],
      `https://company${i % 9973}.example`,
      String(5 + (i % 500)),
      pain,
      `Saw your talk #${i % 100}`,
    ];
    buffer += `${fields.map(quote).join(',')}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'close');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await generateProspects(process.argv[2], Number(process.argv[3] ?? 1000));
}
