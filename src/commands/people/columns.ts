// How a person found by a search is shown: import-friendly columns for CSV and scripts, fewer on a terminal.
import type { Column } from '../../cli/render/columns.js';
import type { Person } from '../../api/contract/people.js';
import { profileFields } from '../../io/people-input.js';

/** Headers `prospects import` maps to fields by name (Person Id and Decision Maker match none: see enrich). */
export const personColumns: Column<Person>[] = profileFields.map(([header, value]) => ({ header, value }));

export const personTableColumns: Column<Person>[] = [
  { header: 'ID', value: (p) => p.id },
  { header: 'NAME', value: (p) => p.full_name, key: true },
  { header: 'TITLE', value: (p) => p.job_title },
  { header: 'COMPANY', value: (p) => p.company_name },
  {
    header: 'LOCATION',
    value: (p) => [p.location?.city, p.location?.country].filter(Boolean).join(', '),
  },
];
