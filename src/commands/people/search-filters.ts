// The flags of `people search`, one per filter of spec.md, and the request body they make.
import { flag, ValueProblem } from '../../cli/flags.js';
import { describeIssue } from '../../api/contract/schema.js';
import { exactMatchFilters, pastFilters, searchBodySchema } from '../../api/contract/people.js';
import { InputFileError, UsageError } from '../../errors.js';
import { readInputText, type InputPlace } from '../../io/input-file.js';
import { parseJson } from '../../io/structured-file.js';

/** Include-only filters: flag -> API filter. */
const includeOnly = {
  name: 'full_name',
  keyword: 'keywords',
  certification: 'certifications',
  socialLink: 'social_link',
} as const;

const includeOnlyWords: Record<keyof typeof includeOnly, string> = {
  name: 'name',
  keyword: 'keyword (in title, industry or skills)',
  certification: 'certification',
  socialLink: 'social profile link',
};

/** Include/exclude filters: flag -> API filter; each also has --not-<flag>. */
const includeExclude = {
  location: 'location',
  title: 'job_title',
  company: 'company_name',
  department: 'department',
  industry: 'company_industry',
  skill: 'skills',
  companyDomain: 'company_domain',
  managementLevel: 'management_level',
  companyHq: 'company_hq_location',
  degree: 'education_degrees',
} as const;

/** Range filters: flag -> API filter. */
const ranges = {
  companySize: 'company_size',
  experience: 'total_experience',
  roleTenure: 'current_role_tenure',
  companyExperience: 'current_company_experience',
  jobsChangedWithin: 'jobs_changed_within',
  revenue: 'company_annual_revenue',
  fundingAmount: 'company_funding_amount',
  fundingDate: 'company_funding_date',
  foundedYear: 'company_founded_year',
  salary: 'projected_base_salary',
  connections: 'linkedin_connection_count',
  followers: 'linkedin_followers_count',
} as const;

const booleans = { decisionMaker: 'decision_maker', b2b: 'is_b2b', bootstrapped: 'company_bootstraped' } as const;

const units: Record<keyof typeof ranges, string> = {
  companySize: 'employees',
  experience: 'months of experience in all',
  roleTenure: 'months in the current role',
  companyExperience: 'months at the current company',
  jobsChangedWithin: 'months since the last job change',
  revenue: 'annual revenue, USD (1m, 500k allowed)',
  fundingAmount: 'funding raised, USD (1m, 500k allowed)',
  fundingDate: 'date of the last funding, YYYY-MM-DD..YYYY-MM-DD',
  foundedYear: 'year the company was founded',
  salary: 'projected base salary, USD (120k allowed)',
  connections: 'LinkedIn connections',
  followers: 'LinkedIn followers',
};

const multipliers: Record<string, number> = { '': 1, k: 1e3, m: 1e6, b: 1e9 };

function rangeNumber(text: string): string {
  const match = /^(\d+(?:\.\d+)?)([kmb]?)$/i.exec(text.trim());
  if (!match) throw new ValueProblem(`takes MIN-MAX, MIN- or -MAX with numbers (50-200, 24-, -1m), not "${text}"`);
  return String(Math.round(Number(match[1]) * multipliers[match[2]!.toLowerCase()]!));
}

function rangeDate(text: string): string {
  const date = text.trim();
  const parsed = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== date)
    throw new ValueProblem(`takes dates as YYYY-MM-DD..YYYY-MM-DD (either side may be left out), not "${text}"`);
  return date;
}

/** `50-200`, `24-`, `-1m`, `50..200`; dates only with `..`. At least one side; min not above max. */
export function readRange(raw: string, dates: boolean): { min?: string; max?: string } {
  const separator = raw.includes('..') ? '..' : dates ? undefined : '-';
  const parts = separator ? raw.split(separator) : [];
  if (parts.length !== 2 || (!parts[0]!.trim() && !parts[1]!.trim()))
    throw new ValueProblem(
      dates
        ? `takes dates as YYYY-MM-DD..YYYY-MM-DD (either side may be left out), not "${raw}"`
        : `takes MIN-MAX, MIN- or -MAX (50-200, 24-, -1m), not "${raw}"`,
    );
  const read = dates ? rangeDate : rangeNumber;
  const min = parts[0]!.trim() ? read(parts[0]!) : undefined;
  const max = parts[1]!.trim() ? read(parts[1]!) : undefined;
  if (min !== undefined && max !== undefined && (dates ? min > max : Number(min) > Number(max)))
    throw new ValueProblem(`has its minimum above its maximum: "${raw}"`);
  return { ...(min !== undefined && { min }), ...(max !== undefined && { max }) };
}

const nonBlank = (raw: string) => {
  if (!raw.trim()) throw new ValueProblem('must not be empty');
  return raw.trim();
};

function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export const searchFilterFlags = {
  ...(Object.fromEntries(
    Object.keys(includeOnly).map((key) => [
      key,
      flag.list(`people with this ${includeOnlyWords[key as keyof typeof includeOnly]}; any of the values`, {
        value: 'text',
        each: nonBlank,
      }),
    ]),
  ) as Record<keyof typeof includeOnly, ReturnType<typeof flag.list<string>>>),
  ...(Object.fromEntries(
    Object.entries(includeExclude).flatMap(([key, api]) => [
      [key, flag.list(`${api.replace(/_/g, ' ')} to include; any of the values`, { value: 'text', each: nonBlank })],
      [
        `not${key[0]!.toUpperCase()}${key.slice(1)}`,
        flag.list(`${api.replace(/_/g, ' ')} to exclude`, { value: 'text', each: nonBlank }),
      ],
    ]),
  ) as Record<
    keyof typeof includeExclude | `not${Capitalize<keyof typeof includeExclude>}`,
    ReturnType<typeof flag.list<string>>
  >),
  exact: flag.bool('match whole values, not parts, for --name, --location, --company-hq, --skill, --title, --company'),
  past: flag.bool('--title and --company also match past jobs'),
  ...(Object.fromEntries(
    Object.entries(ranges).map(([key, api]) => [
      key,
      flag.custom(units[key as keyof typeof ranges], (raw) => readRange(raw, api === 'company_funding_date'), {
        value: api === 'company_funding_date' ? 'from..to' : 'min-max',
      }),
    ]),
  ) as Record<keyof typeof ranges, ReturnType<typeof flag.custom<{ min?: string; max?: string }>>>),
  decisionMaker: flag.negatable('decision makers only', 'no decision makers'),
  b2b: flag.negatable('companies selling to businesses', 'companies not selling to businesses'),
  bootstrapped: flag.negatable('bootstrapped companies', 'funded companies'),
  linkedinUrl: flag.list('these LinkedIn profiles', { value: 'url', each: nonBlank }),
  limitPerCompany: flag.int('at most this many people per company', { min: 1, max: 10_000 }),
  filters: flag.text('a saved search: the JSON body of an earlier --dry-run; flags add their values to it', {
    value: 'file.json',
  }),
};

type FilterOptions = { [K in keyof typeof searchFilterFlags]: ReturnType<(typeof searchFilterFlags)[K]['parse']> };

function parseFilters(path: string, text: string): Record<string, unknown> {
  const parsed = parseJson(text, path, 'Write it with --dry-run.');
  const checked = searchBodySchema.safeParse(parsed);
  if (!checked.success)
    throw new InputFileError(path, `is not a people search: ${describeIssue(checked.error, 'filters')}`);
  return { ...(checked.data as Record<string, unknown>) };
}

/** The request body (without page) the flags ask for, on top of --filters' file (a path, or - for stdin). */
export async function searchBody(opts: FilterOptions, place: InputPlace): Promise<Record<string, unknown>> {
  const shown = `--filters: ${opts.filters}`;
  const body = opts.filters ? parseFilters(shown, await readInputText(opts.filters, place, shown)) : {};
  // Values from flags join those of the saved search, which keeps its exactMatch and shouldSearchPast.
  const add = (api: string, list: 'includes' | 'excludes', values: string[]) => {
    if (!values.length) return;
    const filter = (body[api] ??= {}) as Record<string, unknown>;
    filter[list] = [...((filter[list] as string[] | undefined) ?? []), ...values];
  };
  for (const [key, api] of Object.entries(includeOnly)) add(api, 'includes', opts[key as keyof typeof includeOnly]);
  for (const [key, api] of Object.entries(includeExclude)) {
    add(api, 'includes', opts[key as keyof typeof includeExclude]);
    add(api, 'excludes', opts[`not${key[0]!.toUpperCase()}${key.slice(1)}` as keyof FilterOptions] as string[]);
  }
  for (const [key, api] of Object.entries(ranges)) {
    const range = opts[key as keyof typeof ranges];
    if (range) body[api] = range;
  }
  for (const [key, api] of Object.entries(booleans)) {
    const value = opts[key as keyof typeof booleans];
    if (value !== undefined) body[api] = value;
  }
  if (opts.linkedinUrl.length) body.linkedin_url = opts.linkedinUrl;
  if (opts.limitPerCompany !== undefined) body.limitPerCompany = opts.limitPerCompany;
  applyModifier(body, opts.exact, 'exactMatch', exactMatchFilters, '--exact');
  applyModifier(body, opts.past, 'shouldSearchPast', pastFilters, '--past');
  return body;
}

/** --exact / --past: set on every filter that takes it; given with none of those filters, it is a mistake. */
function applyModifier(
  body: Record<string, unknown>,
  given: boolean,
  field: 'exactMatch' | 'shouldSearchPast',
  filters: readonly string[],
  flagName: string,
): void {
  if (!given) return;
  const present = filters.filter((name) => body[name]);
  if (!present.length) {
    const flags = filters.map(
      (api) =>
        `--${kebab(
          Object.entries({ ...includeOnly, ...includeExclude }).find(([, value]) => value === api)?.[0] ?? api,
        )}`,
    );
    throw new UsageError(`${flagName} applies to ${flags.join(', ')}; none of them is given`);
  }
  for (const name of present) (body[name] as Record<string, unknown>)[field] = 1;
}
