// People search over the sandbox's index, as spec.md says filters combine: AND across filters, OR among the values of
// one; excludes drop a person; exactMatch compares whole values, otherwise a value matches inside the text (ignoring
// case) where a word starts; shouldSearchPast also looks at past titles and companies; ranges are inclusive and need a value.
import type { IndexedPerson } from './people-index.js';
import { normaliseLinkedinUrl } from './people-index.js';
import { SandboxError } from '../../sandbox-error.js';

interface TextFilter {
  includes?: string[];
  excludes?: string[];
  exactMatch?: 0 | 1;
  shouldSearchPast?: 0 | 1;
}
type Filters = Record<string, unknown>;

/** The texts each text filter looks at, now and (for shouldSearchPast) in the past. */
const textsOf: Record<string, (p: IndexedPerson) => string[]> = {
  full_name: (p) => [p.person.full_name ?? ''],
  certifications: (p) => p.certifications,
  social_link: (p) => p.socialLinks,
  keywords: (p) => p.keywords,
  location: (p) => {
    const { country, state, city } = p.person.location ?? {};
    return [country ?? '', state ?? '', city ?? ''].filter(Boolean);
  },
  company_hq_location: (p) => [p.hqLocation],
  skills: (p) => p.skills,
  department: (p) => [p.person.department ?? ''],
  management_level: (p) => [p.managementLevel],
  company_industry: (p) => [p.industry],
  education_degrees: (p) => p.degrees,
  company_domain: (p) => [p.companyDomain],
  job_title: (p) => [p.person.job_title ?? ''],
  company_name: (p) => [p.person.company_name ?? ''],
};
const pastOf: Record<string, (p: IndexedPerson) => string[]> = {
  job_title: (p) => p.pastTitles,
  company_name: (p) => p.pastCompanies,
};

/** Whole values with exactMatch; otherwise the value where a word starts (`CTO` is not in "Director"). */
function textMatch(texts: string[], value: string, exact: boolean): boolean {
  const wanted = value.trim().toLowerCase();
  return texts.some((text) => {
    const lower = text.toLowerCase();
    if (exact) return lower === wanted;
    for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, at + 1))
      if (at === 0 || !/[\p{L}\p{N}]/u.test(lower[at - 1]!)) return true;
    return false;
  });
}

function rangeBound(name: string, which: 'min' | 'max', raw: string | undefined): number | string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (name === 'company_funding_date') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw))
      throw new SandboxError(400, 1001, `${name}.${which} must be a date (YYYY-MM-DD)`);
    return raw;
  }
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new SandboxError(400, 1001, `${name}.${which} must be a number, not "${raw}"`);
  return value;
}

type Test = (p: IndexedPerson) => boolean;

/** One test per filter in the body; a person is found when all pass. */
function testsFor(filters: Filters): Test[] {
  const tests: Test[] = [];
  for (const [name, raw] of Object.entries(filters)) {
    if (raw === undefined || name === 'page' || name === 'limitPerCompany') continue;
    if (name in textsOf) {
      const filter = raw as TextFilter;
      const exact = filter.exactMatch === 1;
      const texts = (p: IndexedPerson) =>
        filter.shouldSearchPast === 1 && pastOf[name] ? [...textsOf[name]!(p), ...pastOf[name]!(p)] : textsOf[name]!(p);
      const includes = (filter.includes ?? []).filter((v) => v.trim());
      const excludes = (filter.excludes ?? []).filter((v) => v.trim());
      if (includes.length) tests.push((p) => includes.some((v) => textMatch(texts(p), v, exact)));
      if (excludes.length) tests.push((p) => !excludes.some((v) => textMatch(texts(p), v, exact)));
    } else if (name === 'linkedin_url') {
      const urls = new Set((raw as string[]).map(normaliseLinkedinUrl));
      if (urls.size) tests.push((p) => urls.has(normaliseLinkedinUrl(p.person.linkedin_url)));
    } else if (name === 'decision_maker') {
      tests.push((p) => p.person.decision_maker === raw);
    } else if (name === 'is_b2b') {
      tests.push((p) => p.person.company_is_b2b === raw);
    } else if (name === 'company_bootstraped') {
      tests.push((p) => p.bootstrapped === raw);
    } else {
      const { min: rawMin, max: rawMax } = raw as { min?: string; max?: string };
      const min = rangeBound(name, 'min', rawMin);
      const max = rangeBound(name, 'max', rawMax);
      if (min !== undefined && max !== undefined && min > max)
        throw new SandboxError(400, 1001, `${name}: min is greater than max`);
      tests.push((p) => {
        const value = p.ranges[name];
        return value !== undefined && (min === undefined || value >= min) && (max === undefined || value <= max);
      });
    }
  }
  return tests;
}

/** Everyone the filters find, in index order, at most limitPerCompany from each company. */
export function searchPeople(index: IndexedPerson[], filters: Filters): IndexedPerson[] {
  const tests = testsFor(filters);
  const perCompany = typeof filters.limitPerCompany === 'number' ? filters.limitPerCompany : Infinity;
  const counts = new Map<string, number>();
  const found: IndexedPerson[] = [];
  for (const entry of index) {
    if (!tests.every((test) => test(entry))) continue;
    const company = entry.person.company_name ?? '';
    const seen = counts.get(company) ?? 0;
    if (seen >= perCompany) continue;
    counts.set(company, seen + 1);
    found.push(entry);
  }
  return found;
}
