// How a person found by a search is shown: import-friendly columns for CSV and scripts, fewer on a terminal.
import type { Column } from '../../cli/render/columns.js';
import type { Person } from '../../api/contract/people.js';

/** "Ana María García" -> ["Ana", "María García"]: the first word is the first name. */
export function splitName(fullName: string | undefined): [string, string] {
  const words = (fullName ?? '').trim().split(/\s+/).filter(Boolean);
  return [words[0] ?? '', words.slice(1).join(' ')];
}

/** Headers `prospects import` maps to fields by name (Person Id and Decision Maker match none: see enrich). */
export const personColumns: Column<Person>[] = [
  { header: 'Person Id', value: (p) => p.id },
  { header: 'First Name', value: (p) => splitName(p.full_name)[0] },
  { header: 'Last Name', value: (p) => splitName(p.full_name)[1] },
  { header: 'Job Title', value: (p) => p.job_title },
  { header: 'Company', value: (p) => p.company_name },
  { header: 'Company Website', value: (p) => p.company_website },
  { header: 'LinkedIn URL', value: (p) => p.linkedin_url },
  { header: 'Department', value: (p) => p.department },
  { header: 'City', value: (p) => p.location?.city },
  { header: 'State', value: (p) => p.location?.state },
  { header: 'Country', value: (p) => p.location?.country },
  { header: 'Decision Maker', value: (p) => p.decision_maker },
];

export const personTableColumns: Column<Person>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'NAME', value: (p) => p.full_name },
  { header: 'TITLE', value: (p) => p.job_title },
  { header: 'COMPANY', value: (p) => p.company_name },
  {
    header: 'LOCATION',
    value: (p) => [p.location?.city, p.location?.country].filter(Boolean).join(', '),
  },
];
