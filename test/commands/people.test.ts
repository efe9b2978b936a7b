// outreach people search through the real CLI against an in-process sandbox: each kind of filter, paging up to the
// display limit, the empty answer, and flags checked before anything is sent. Expected people are picked from the
// sandbox's index with plain predicates written here, not with the sandbox's own search code.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import type { IndexedPerson } from '../../src/sandbox/resources/people/people-index.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(() => sb.close());

const search = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['people', 'search', ...argv], { env: sb.env, ...extra });
const index = () => sb.sandbox.store.peopleIndex().all;
const ids = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => Number(line.split('\t')[0]));
const ndjsonIds = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line).id as number);
const searches = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/search/people');
const has = (texts: Array<string | null | undefined>, part: string) =>
  texts.some((t) => (t ?? '').toLowerCase().includes(part.toLowerCase()));
const locationOf = (p: IndexedPerson) => [
  p.person.location?.country,
  p.person.location?.state,
  p.person.location?.city,
];

describe('people search filters', () => {
  it('combines filters with AND and the values of one filter with OR, one page of 25 by default', async () => {
    const expected = index().filter(
      (p) =>
        has([p.person.job_title], 'Head of Sales') && (has(locationOf(p), 'Germany') || has(locationOf(p), 'France')),
    );
    expect(expected.length).toBeGreaterThan(25);
    const result = await search(['--title', 'Head of Sales', '--location', 'Germany', '--location', 'France']);
    expect(result.code).toBe(0);
    expect(ids(result.stdout)).toEqual(expected.slice(0, 25).map((p) => p.person.id));
    const first = expected[0]!.person;
    expect(result.stdout.split('\n')[0]).toBe(
      [
        first.id,
        first.full_name!.split(' ')[0],
        first.full_name!.split(' ').slice(1).join(' '),
        first.job_title,
        first.company_name,
        first.company_website,
        first.linkedin_url,
        first.department,
        first.location!.city,
        first.location!.state,
        first.location!.country,
        'yes',
      ].join('\t'),
    );
    expect(result.stderr).toBe(
      `25 of ${expected.length} people found; --all or --limit N for more, --page 2 for the next\n`,
    );
  });

  it('--not-<filter> excludes, --exact compares whole values, --past also matches past jobs', async () => {
    const excluded = await search([
      '--title',
      'Sales',
      '--not-title',
      'Manager',
      '--not-location',
      'Germany',
      '--all',
      '--ndjson',
    ]);
    const expectedExcluded = index().filter(
      (p) =>
        has([p.person.job_title], 'Sales') && !has([p.person.job_title], 'Manager') && !has(locationOf(p), 'Germany'),
    );
    expect(ndjsonIds(excluded.stdout)).toEqual(expectedExcluded.slice(0, 2500).map((p) => p.person.id));

    const exact = await search(['--title', 'Sales', '--exact', '--json']);
    expect({ code: exact.code, stdout: exact.stdout }).toEqual({ code: 0, stdout: '[]\n' });

    const past = await search(['--title', 'Recruiter', '--past', '--all', '--ndjson']);
    const expectedPast = index().filter(
      (p) => p.person.job_title === 'Recruiter' || p.pastTitles.includes('Recruiter'),
    );
    expect(ndjsonIds(past.stdout)).toEqual(expectedPast.map((p) => p.person.id));
    expect(expectedPast.some((p) => p.person.job_title !== 'Recruiter')).toBe(true);
  });

  it('ranges: MIN-MAX, MIN-, -MAX with k/m, and dates with FROM..TO', async () => {
    const result = await search([
      '--company-size', '50-200', '--experience', '24-', '--revenue', '-10m',
      '--funding-date', '2020-01-01..2023-12-31', '--all', '--ndjson',
    ]); // prettier-ignore
    const expected = index().filter((p) => {
      const r = p.ranges as Record<string, number | string | undefined>;
      const date = r.company_funding_date as string | undefined;
      return (
        (r.company_size as number) >= 50 &&
        (r.company_size as number) <= 200 &&
        (r.total_experience as number) >= 24 &&
        (r.company_annual_revenue as number) <= 10_000_000 &&
        date !== undefined &&
        date >= '2020-01-01' &&
        date <= '2023-12-31'
      );
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(ndjsonIds(result.stdout)).toEqual(expected.map((p) => p.person.id));
  });

  it('include-only filters, booleans, LinkedIn URLs and limit per company', async () => {
    const kw = await search([
      '--keyword',
      'kubernetes',
      '--certification',
      'AWS',
      '--decision-maker',
      '--all',
      '--ndjson',
    ]);
    const expectedKw = index().filter(
      (p) => has(p.keywords, 'kubernetes') && has(p.certifications, 'AWS') && p.person.decision_maker === true,
    );
    expect(ndjsonIds(kw.stdout)).toEqual(expectedKw.map((p) => p.person.id));

    const b2b = await search(['--no-b2b', '--bootstrapped', '--industry', 'Education', '--all', '--ndjson']);
    const expectedB2b = index().filter(
      (p) => p.person.company_is_b2b === false && p.bootstrapped && has([p.industry], 'Education'),
    );
    expect(ndjsonIds(b2b.stdout)).toEqual(expectedB2b.map((p) => p.person.id));

    const [a, b] = index();
    const byUrl = await search([
      '--linkedin-url',
      a!.person.linkedin_url.toUpperCase(),
      '--linkedin-url',
      `${b!.person.linkedin_url}/`,
    ]);
    expect(ids(byUrl.stdout)).toEqual([a!.person.id, b!.person.id]);

    const perCompany = await search(['--company', 'Acme Works', '--limit-per-company', '2', '--json']);
    expect(JSON.parse(perCompany.stdout).map((p: { company_name: string }) => p.company_name)).toEqual([
      'Acme Works',
      'Acme Works',
    ]);
  });

  it('nothing found: the service answers payload [] and the CLI prints an empty list, exit 0', async () => {
    const raw = await sb.request('POST', '/v1/search/people', { job_title: { includes: ['Astronaut'] } });
    expect(raw.body).toEqual({ message: 'No people found', payload: [] });
    const csv = await search(['--title', 'Astronaut', '--csv']);
    expect(csv).toMatchObject({
      code: 0,
      stdout:
        'Person Id,First Name,Last Name,Job Title,Company,Company Website,LinkedIn URL,Department,City,State,Country,Decision Maker\n',
      stderr: '',
    });
    const table = await search(['--title', 'Astronaut'], { stdoutIsTTY: true, stderrIsTTY: true });
    expect(table.stderr).toBe('no people match these filters\n');
  });
});

describe('people search text matching', () => {
  it('matches where a word starts: --title CTO finds no Director', async () => {
    const result = await search(['--title', 'cto', '--json']);
    expect(result.stdout).toBe('[]\n');
    const engineers = await search(['--title', 'engineer', '--all', '--ndjson']);
    const titles = new Set(
      engineers.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).job_title),
    );
    expect([...titles].sort()).toEqual([
      'Engineering Manager',
      'Senior Software Engineer',
      'Software Engineer',
      'VP of Engineering',
    ]);
  });
});

describe('people search paging', () => {
  it('--all walks the pages up to the display limit, streaming; the totals go to stderr', async () => {
    sb.sandbox.store.settings.displayLimit = 60;
    const result = await search(['--all', '--ndjson']);
    expect(result.code).toBe(0);
    expect(ndjsonIds(result.stdout)).toEqual(
      index()
        .slice(0, 60)
        .map((p) => p.person.id),
    );
    expect(searches()).toHaveLength(3);
    expect(result.stderr).toBe('60 of 5,000 people found (the account sees at most 60)\n');
  });

  /** people search against a service of our own that answers every page with 25 people and `meta`; the pages asked. */
  async function searchFake(argv: string[], meta: Record<string, unknown>) {
    const { createServer } = await import('node:http');
    const asked: number[] = [];
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        const page = (JSON.parse(body) as { page: number }).page;
        asked.push(page);
        const people = Array.from({ length: 25 }, (_, i) => ({ id: page * 100 + i, full_name: 'A B' }));
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ payload: { ...meta, people } }));
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as { port: number }).port;
    const result = await search(argv, {
      env: { OUTREACH_BASE_URL: `http://127.0.0.1:${port}`, OUTREACH_API_KEY: 'sk_fake_0123456789' },
    });
    await new Promise((resolve) => fake.close(resolve));
    return { result, asked: asked.sort((x, y) => x - y) };
  }

  it('never goes past the display limit, even when the service says there are more pages', async () => {
    const meta = { display_limit: 50, total_results: 1000, has_next_page: true };
    const { result, asked } = await searchFake(['--all', '--ndjson', '--concurrency', '1'], meta);
    expect(result.stdout.trim().split('\n')).toHaveLength(50);
    expect(asked).toEqual([1, 2]);
    expect(result.stderr).toBe('50 of 1,000 people found (the account sees at most 50)\n');
  });

  it('asks for no page past the display limit, even pages ahead at --concurrency', async () => {
    const meta = { display_limit: 100, total_results: 1000, total_pages: 40, has_next_page: true };
    const { result, asked } = await searchFake(['--all', '--ndjson', '--concurrency', '4'], meta);
    expect(result.stdout.trim().split('\n')).toHaveLength(100);
    expect(asked).toEqual([1, 2, 3, 4]);
  });

  it('a page past the last one the account may see says so, exit 2', async () => {
    const result = await search(['--page', '101']);
    expect({ code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error: 'error: page 101 is past the last page the account may see',
    });
  });

  it('--limit stops at that many people and asks for no page beyond them; --page shows one page', async () => {
    const max = await search(['--limit', '30', '--csv']);
    expect(max.stdout.trim().split('\n')).toHaveLength(31);
    expect(searches()).toHaveLength(2);
    const page = await search(['--page', '3']);
    expect(ids(page.stdout)).toEqual(
      index()
        .slice(50, 75)
        .map((p) => p.person.id),
    );
  });
});

describe('people search flags', () => {
  it('refuses bad values before sending, naming the flag, exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['--company-size', '200-50'], 'error: --company-size has its minimum above its maximum: "200-50"\n'],
      [['--experience', 'lots'], 'error: --experience takes MIN-MAX, MIN- or -MAX (50-200, 24-, -1m), not "lots"\n'],
      [
        ['--funding-date', '2024-01-01'],
        'error: --funding-date takes dates as YYYY-MM-DD..YYYY-MM-DD (either side may be left out), not "2024-01-01"\n',
      ],
      [['--page', '401'], 'error: --page must be a whole number from 1 to 400, not "401"\n'],
      [['--limit-per-company', '0'], 'error: --limit-per-company must be a whole number from 1 to 10000, not "0"\n'],
      [
        ['--exact'],
        'error: --exact applies to --name, --location, --company-hq, --skill, --title, --company; none of them is given\n',
      ],
      [['--page', '2', '--all'], 'error: --page and --all cannot be used together\n'],
    ];
    for (const [argv, message] of cases) {
      const result = await search(argv);
      expect({ argv, code: result.code, error: result.stderr.split('\n')[0] + '\n' }).toEqual({
        argv,
        code: 2,
        error: message,
      });
    }
    expect(searches()).toHaveLength(0);
  });

  it('--dry-run shows the body and sends nothing (no key needed); --filters reuses it, flags add to it', async () => {
    const dir = tempDir();
    const printed = await search(['--title', 'CTO', '--not-location', 'Spain', '--company-size', '10-', '--dry-run'], {
      env: {},
    });
    expect(printed.code).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({
      job_title: { includes: ['CTO'] },
      location: { excludes: ['Spain'] },
      company_size: { min: '10' },
    });
    const saved = join(dir, 'cto.json');
    writeFileSync(saved, printed.stdout);
    const reused = await search(
      ['--filters', saved, '--decision-maker', '--title', 'CEO', '--not-title', 'Intern', '--dry-run'],
      { env: {} },
    );
    expect(JSON.parse(reused.stdout)).toEqual({
      ...JSON.parse(printed.stdout),
      job_title: { includes: ['CTO', 'CEO'], excludes: ['Intern'] },
      decision_maker: true,
    });
    expect(searches()).toHaveLength(0);

    writeFileSync(saved, '{"job_title": {"includes": "CTO"}}');
    const bad = await search(['--filters', saved]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toMatch(/cto\.json.* is not a people search: filters\.job_title\.includes: /);
  });
});
