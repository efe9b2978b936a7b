import { conflicts, defineVerb } from '../../cli/verb.js';
import { flag, renamed } from '../../cli/flags.js';
import { UsageError } from '../../errors.js';
import { jsonResult, listResult } from '../../cli/result.js';
import { maxSearchPage, searchPageSize } from '../../api/contract/people.js';
import { paginatePages } from '../../api/paginate.js';
import { searchPeople, type SearchPage } from '../../api/resources/people.js';
import { formatCount } from '../../format.js';
import { personColumns, personTableColumns } from './columns.js';
import { searchBody, searchFilterFlags } from './search-filters.js';

export default defineVerb({
  agent: { kind: 'read' },
  description: [
    'Filters combine with AND; the values of one filter (a repeated flag) with OR. --not-<filter> excludes.',
    'Ranges: MIN-MAX, MIN- or -MAX (50-200, 24-, -1m; k, m, b allowed); --funding-date takes FROM..TO dates.',
    'One page (25 people) by default; --all or --limit N walks the pages (up to 400, and no further than the',
    "account's display limit), --concurrency pages at a time, writing people in order as they arrive. The totals go",
    'to stderr.',
    '--csv has import-friendly headers (Person Id, First Name, Last Name, Job Title, Company, Company Website,',
    'LinkedIn URL, Department, City, State, Country, Decision Maker). A search finds no emails: pipe --csv or',
    '--ndjson to `outreach enrich contacts --file -` for those.',
  ].join('\n'),
  examples: [
    "people search --title 'Head of Sales' --location Germany --company-size 50-200",
    "people search --title 'VP Sales' --past --not-industry Education --decision-maker --all --csv > leads.csv",
    'people search --title CTO --not-location Spain --dry-run > cto.json',
  ],
  flags: {
    ...searchFilterFlags,
    page: flag.int('this page only', { min: 1, max: maxSearchPage }),
    all: flag.bool('every page the account may see'),
    limit: renamed(flag.int('stop after this many people (walks the pages)', { min: 1 }), 'max'),
    concurrency: flag.int('pages asked for at once with --all / --limit', { min: 1, max: 8, default: 4 }),
    dryRun: renamed(flag.bool('print the request body that would be sent, and send nothing'), 'printFilters'),
  },
  rules: [conflicts('page', 'all'), conflicts('page', 'limit')],
  async run(ctx, opts) {
    const body = await searchBody(opts, ctx);
    if (opts.dryRun) return jsonResult(body);
    const http = await ctx.http();
    const walking = opts.all || opts.limit !== undefined;
    const limit = opts.limit ?? Infinity;
    const first = opts.page ?? 1;
    // Once the first page tells how many pages there are, the next ones are asked for --concurrency at a time and
    // written in order; pages asked for ahead of a stop are only reads. Never past what the account may see, even
    // when the service says there are more pages.
    let latest = { page: first, answer: undefined as SearchPage | undefined, reachable: 0 };
    let written = 0;
    const answers = paginatePages(
      async (page) => {
        const answer = await searchPeople(http, { ...body, page });
        const reachable = Math.min(answer.totalResults, answer.displayLimit ?? Infinity, limit);
        return { ...answer, items: answer.people, reachable };
      },
      {
        pageSize: searchPageSize,
        startPage: first,
        limit: walking ? limit : Infinity,
        ahead: opts.concurrency - 1,
        maxPage: walking ? maxSearchPage : first,
      },
      (page, answer, kept) => {
        latest = { page, answer, reachable: answer.reachable };
        written += kept;
      },
    );
    async function* pages(): AsyncGenerator<SearchPage['people']> {
      for await (const people of answers) {
        yield people;
        ctx.emit({ type: 'progress', text: `people: ${formatCount(written)} of ${formatCount(latest.reachable)}` });
      }
    }
    /** The totals, once every person found is written; a page past the last one the account may see is a mistake. */
    const totals = () => {
      const { page, answer } = latest;
      const total = answer?.totalResults ?? 0;
      if (total === 0) return {};
      if (written === 0)
        throw new UsageError(
          `page ${page} is past the last page the account may see`,
          'Start from --page 1, or walk them all with --all.',
        );
      const more =
        Boolean(answer?.hasNextPage) &&
        Boolean(answer?.people.length) &&
        page < maxSearchPage &&
        written < latest.reachable;
      const capped =
        answer?.displayLimit !== undefined && total > answer.displayLimit
          ? ` (the account sees at most ${formatCount(answer.displayLimit)})`
          : '';
      const next = !walking && more ? `; --all or --limit N for more, --page ${first + 1} for the next` : '';
      return { note: `${formatCount(written)} of ${formatCount(total)} people found${capped}${next}` };
    };
    return listResult(
      { pages: pages() },
      ctx.output.format === 'table' ? personTableColumns : personColumns,
      { emptyMessage: 'no people match these filters' },
      { job: true, after: totals },
    );
  },
});
