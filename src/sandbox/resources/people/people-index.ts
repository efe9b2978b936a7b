// The sandbox's people index: 5,000 generated people, the same on every run (seeded), with a value for every filter
// of spec.md's people search. Derived, not stored: the state file only keeps what enrichment revealed.
import type { Person } from '../../../api/contract/people.js';
export { normaliseLinkedinUrl } from '../../../io/linkedin-url.js';
import { seededRandom } from '../../prng.js';

export interface IndexedPerson {
  person: Person & { id: number; linkedin_url: string; picture_url: string };
  firstName: string;
  lastName: string;
  companyDomain: string;
  industry: string;
  hqLocation: string;
  managementLevel: string;
  skills: string[];
  certifications: string[];
  degrees: string[];
  keywords: string[];
  socialLinks: string[];
  pastTitles: string[];
  pastCompanies: string[];
  bootstrapped: boolean;
  /** Values of the range filters: numbers, or an ISO date for company_funding_date (absent when never funded). */
  ranges: Record<string, number | string | undefined>;
  /** Some people have no address the enrichment can find. */
  hasEmail: boolean;
  hasPhone: boolean;
}

export const peopleIndexSize = 5_000;

const firstNames = [
  'Anna', 'Ben', 'Chloé', 'David', 'Elena', 'Felix', 'Grace', 'Hannah', 'Ibrahim', 'Julia', 'Karan', 'Lena', 'Mateo',
  'Nora', 'Oliver', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tanya', 'Umar', 'Valentina', 'William', 'Xin', 'Yusuf',
  'Zoë', 'Łukasz', 'Søren', 'José', 'Aisha', 'Bruno', 'Chen', 'Dmitri', 'Emma', 'Fatima', 'Giulia', 'Hiroshi', 'Ines',
  'Jonas', 'Kofi', 'Laura', 'Marco', 'Nadia', 'Omar', 'Paula', 'Rahul', 'Sara', 'Tomás', 'Ursula', 'Viktor',
]; // prettier-ignore
const lastNames = [
  'Müller', 'Schmidt', 'Smith', 'Johnson', 'García López', 'Rossi', 'Dubois', 'Nowak', 'Kowalski', 'van der Berg',
  'Andersen', 'Okafor', 'Tanaka', 'Kim', 'Nguyen', 'Patel', 'Singh', "O'Brien", 'Fischer', 'Weber', 'Martin',
  'Silva', 'Costa', 'Ivanova', 'Hansen', 'Larsen', 'Moreau', 'Bianchi', 'Haddad', 'Mensah', 'Schneider', 'Becker',
  'Wright', 'Taylor', 'Brown', 'Lee', 'Chen', 'Kaur', 'Yilmaz', 'Demir',
]; // prettier-ignore

/** [country, state, city]: states left blank or repeating the city, as the real index has them. */
const locations: Array<[string, string, string]> = [
  ['Germany', 'Berlin', 'Berlin'],
  ['Germany', 'Bavaria', 'Munich'],
  ['Germany', 'Hamburg', 'Hamburg'],
  ['Germany', 'Hesse', 'Frankfurt'],
  ['Germany', '', 'Cologne'],
  ['United States', 'California', 'San Francisco'],
  ['United States', 'New York', 'New York'],
  ['United States', 'Texas', 'Austin'],
  ['United States', 'Massachusetts', 'Boston'],
  ['United States', 'Washington', 'Seattle'],
  ['United Kingdom', 'England', 'London'],
  ['United Kingdom', '', 'Manchester'],
  ['United Kingdom', 'Scotland', 'Edinburgh'],
  ['France', 'Île-de-France', 'Paris'],
  ['France', '', 'Lyon'],
  ['India', 'Karnataka', 'Bengaluru'],
  ['India', 'Maharashtra', 'Mumbai'],
  ['Singapore', 'Singapore', 'Singapore'],
  ['Netherlands', 'North Holland', 'Amsterdam'],
  ['Brazil', 'São Paulo', 'São Paulo'],
  ['Canada', 'Ontario', 'Toronto'],
  ['Australia', 'New South Wales', 'Sydney'],
  ['Spain', '', ''],
];

/** [title, department, management level] */
const roles: Array<[string, string, string]> = [
  ['Chief Executive Officer', 'Management', 'C-Level'],
  ['Founder & CEO', 'Management', 'C-Level'],
  ['Chief Revenue Officer', 'Sales', 'C-Level'],
  ['VP of Sales', 'Sales', 'VP'],
  ['Head of Sales', 'Sales', 'Head'],
  ['Sales Director', 'Sales', 'Director'],
  ['Sales Manager', 'Sales', 'Manager'],
  ['Account Executive', 'Sales', 'Senior'],
  ['Sales Development Representative', 'Sales', 'Entry'],
  ['Chief Marketing Officer', 'Marketing', 'C-Level'],
  ['Head of Marketing', 'Marketing', 'Head'],
  ['Marketing Manager', 'Marketing', 'Manager'],
  ['Content Marketing Specialist', 'Marketing', 'Entry'],
  ['Chief Technology Officer', 'Engineering', 'C-Level'],
  ['VP of Engineering', 'Engineering', 'VP'],
  ['Engineering Manager', 'Engineering', 'Manager'],
  ['Senior Software Engineer', 'Engineering', 'Senior'],
  ['Software Engineer', 'Engineering', 'Entry'],
  ['Head of Product', 'Product', 'Head'],
  ['Product Manager', 'Product', 'Manager'],
  ['Chief Financial Officer', 'Finance', 'C-Level'],
  ['Finance Director', 'Finance', 'Director'],
  ['Accountant', 'Finance', 'Entry'],
  ['Head of People', 'Human Resources', 'Head'],
  ['Recruiter', 'Human Resources', 'Entry'],
  ['Chief Operating Officer', 'Operations', 'C-Level'],
  ['Sales Operations Manager', 'Operations', 'Manager'],
  ['Head of Customer Success', 'Customer Success', 'Head'],
  ['Customer Success Manager', 'Customer Success', 'Manager'],
  ['IT Manager', 'Information Technology', 'Manager'],
];
const decisionLevels = new Set(['C-Level', 'VP', 'Head', 'Director']);

const skillsByDepartment: Record<string, string[]> = {
  Management: ['Leadership', 'Strategy', 'Fundraising', 'P&L Management'],
  Sales: ['Salesforce', 'Negotiation', 'Cold Calling', 'B2B Sales', 'Pipeline Management'],
  Marketing: ['SEO', 'Content Strategy', 'HubSpot', 'Paid Ads', 'Brand Management'],
  Engineering: ['TypeScript', 'Python', 'Kubernetes', 'AWS', 'Go'],
  Product: ['Roadmapping', 'User Research', 'Agile', 'Analytics'],
  Finance: ['Financial Modeling', 'Excel', 'Budgeting', 'IFRS'],
  'Human Resources': ['Recruiting', 'Employer Branding', 'Onboarding'],
  Operations: ['Process Improvement', 'Salesforce', 'Forecasting'],
  'Customer Success': ['Onboarding', 'Account Management', 'Churn Reduction'],
  'Information Technology': ['Networking', 'Security', 'Microsoft 365'],
};
const certificationList = [
  'Salesforce Certified Administrator',
  'AWS Certified Solutions Architect',
  'PMP',
  'HubSpot Inbound Certification',
  'Google Ads Certification',
  'CPA',
  'Certified Scrum Master',
];
const degreeList = ["Bachelor's Degree", "Master's Degree", 'MBA', 'PhD', 'Associate Degree'];
const industries = [
  'Computer Software',
  'Financial Services',
  'Hospital & Health Care',
  'E-Commerce',
  'Manufacturing',
  'Education',
  'Marketing & Advertising',
  'Logistics',
  'Real Estate',
  'Telecommunications',
];
const companyWords = ['Acme', 'Nimbus', 'Vertex', 'Bright', 'Blue', 'North', 'Quantum', 'Silver', 'Atlas', 'Nova'];
const companyKinds = [
  'Labs',
  'Systems',
  'Analytics',
  'Logistics',
  'Health',
  'Capital',
  'Works',
  'Cloud',
  'Media',
  'AI',
];

interface Company {
  name: string;
  domain: string;
  website: string;
  industry: string;
  hq: [string, string, string];
  size: number;
  revenue: number;
  fundingAmount: number;
  fundingDate?: string;
  foundedYear: number;
  b2b: boolean | null;
  bootstrapped: boolean;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/ø/g, 'o')
    .replace(/[^a-z0-9]+/g, '');

function makeCompanies(random: () => number): Company[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const companies: Company[] = [];
  for (const word of companyWords)
    for (const kind of companyKinds) {
      const name = `${word} ${kind}`;
      const domain = `${slug(word)}${slug(kind)}.example`;
      const bootstrapped = random() < 0.3;
      const year = 2000 + Math.floor(random() * 25);
      const b2bRoll = random();
      companies.push({
        name,
        domain,
        // One company in ten shows no website in the index.
        website: random() < 0.1 ? '' : `https://www.${domain}`,
        industry: pick(industries),
        hq: pick(locations),
        size: Math.round(5 * Math.pow(2000, random())),
        revenue: Math.round(Math.pow(10, 5 + random() * 4)),
        fundingAmount: bootstrapped ? 0 : Math.round(Math.pow(10, 5 + random() * 3)),
        fundingDate: bootstrapped
          ? undefined
          : `${year + Math.floor(random() * (2026 - year))}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-15`,
        foundedYear: year - Math.floor(random() * 40),
        b2b: b2bRoll < 0.6 ? true : b2bRoll < 0.85 ? false : null,
        bootstrapped,
      });
    }
  return companies;
}

/** The index, ordered by id. */
export function buildPeopleIndex(size = peopleIndexSize, seed = 20261123): IndexedPerson[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const companies = makeCompanies(random);
  const people: IndexedPerson[] = [];
  for (let n = 0; n < size; n++) {
    const id = 700_001 + n;
    const firstName = pick(firstNames);
    const lastName = pick(lastNames);
    const company = pick(companies);
    const [title, department, level] = pick(roles);
    // Most people live where their company is; some work remotely elsewhere.
    const [country, state, city] = random() < 0.7 ? company.hq : pick(locations);
    const totalExperience = int(6, 480);
    const roleTenure = int(1, Math.min(totalExperience, 120));
    const companyExperience = int(roleTenure, Math.min(totalExperience, 180));
    const handle = `${slug(firstName)}-${slug(lastName)}-${id.toString(36)}`;
    const linkedinUrl = `https://www.linkedin.com/in/${handle}`;
    const skills = skillsByDepartment[department]!.filter(() => random() < 0.5);
    const socialLinks = [linkedinUrl];
    if (random() < 0.4) socialLinks.push(`https://twitter.com/${handle.replace(/-/g, '_')}`);
    if (department === 'Engineering' && random() < 0.6) socialLinks.push(`https://github.com/${handle}`);
    const pastRole = pick(roles)[0];
    const pastCompany = pick(companies).name;
    people.push({
      person: {
        id,
        full_name: `${firstName} ${lastName}`,
        picture_url: `https://img.example/people/${id}.jpg`,
        job_title: title,
        company_name: company.name,
        company_website: company.website,
        department,
        linkedin_url: linkedinUrl,
        location: { country, state, city },
        total_experience: totalExperience,
        decision_maker: decisionLevels.has(level),
        company_is_b2b: company.b2b,
      },
      firstName,
      lastName,
      companyDomain: company.domain,
      industry: company.industry,
      hqLocation: `${company.hq[2]}, ${company.hq[0]}`,
      managementLevel: level,
      skills,
      certifications: random() < 0.3 ? [pick(certificationList)] : [],
      degrees: random() < 0.8 ? [pick(degreeList)] : [],
      keywords: [title, company.industry, ...skills],
      socialLinks,
      pastTitles: pastRole === title ? [] : [pastRole],
      pastCompanies: pastCompany === company.name ? [] : [pastCompany],
      bootstrapped: company.bootstrapped,
      ranges: {
        jobs_changed_within: roleTenure,
        company_annual_revenue: company.revenue,
        company_funding_amount: company.fundingAmount,
        company_funding_date: company.fundingDate,
        company_founded_year: company.foundedYear,
        current_company_experience: companyExperience,
        current_role_tenure: roleTenure,
        total_experience: totalExperience,
        projected_base_salary: (decisionLevels.has(level) ? 150_000 : 45_000) + int(0, 100) * 1_000,
        company_size: company.size,
        linkedin_connection_count: int(20, 30_000),
        linkedin_followers_count: int(0, 100_000),
      },
      hasEmail: random() >= 0.12,
      hasPhone: random() < 0.6,
    });
  }
  return people;
}

/** The email an enrichment reveals, of the asked type; undefined when there is none to find. */
export function emailOf(entry: IndexedPerson, type: 'work_email' | 'personal_email'): string | undefined {
  if (!entry.hasEmail) return undefined;
  const local = `${slug(entry.firstName)}.${slug(entry.lastName)}`;
  if (type === 'personal_email') {
    const hosts = ['gmail.com', 'outlook.com', 'proton.me'];
    return `${local}${entry.person.id % 100}@${hosts[entry.person.id % hosts.length]}`;
  }
  // A company without a website has no work address to find.
  return entry.person.company_website ? `${local}@${entry.companyDomain}` : undefined;
}

export function phoneOf(entry: IndexedPerson): string | undefined {
  return entry.hasPhone ? `+1 555 ${String(entry.person.id % 10_000_000).padStart(7, '0')}` : undefined;
}
