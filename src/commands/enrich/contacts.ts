import { PassThrough } from 'node:stream';
import { resolve } from 'node:path';
import { defineVerb, conflicts, type Options } from '../../cli/verb.js';
import { flag, hidden, renamed, ValueProblem } from '../../cli/flags.js';
import { ExitCode, exitCodeForItems } from '../../cli/exit-codes.js';
import { listResult, valueResult, type Ending, type ListOptions, type VerbResult } from '../../cli/result.js';
import type { Column } from '../../cli/render/columns.js';
import type { CommandContext } from '../../cli/command-context.js';
import type { EnrichedPerson } from '../../api/contract/people.js';
import { OutputClosed, UsageError } from '../../errors.js';
import type { EnrichSummary } from '../../jobs/enrich.js';
import { WaitTimedOut } from '../../jobs/poller.js';
import { fileStamp, formatCount } from '../../format.js';
import { clockTime } from '../../clock-time.js';
import {
  normaliseHeader,
  parseLeadId,
  profileHeader,
  type InputPerson,
  type PeopleInput,
} from '../../io/people-input.js';
import { linkedinProfileProblem } from '../../io/linkedin-url.js';
import { confirmed } from '../../cli/confirm.js';

/** An enriched person: the input row's columns, looked up by name, with what the enrichment found. */
interface Enriched {
  person: InputPerson;
  result: EnrichedPerson;
  requestId: string;
  column(name: string): string;
}

/** The search's columns that `prospects import` maps to prospect fields. */
const profileColumns = profileHeader.filter((name) => name !== 'Person Id' && name !== 'Decision Maker');

/** Email first, then the search's columns `prospects import` knows; Phone Number with --phone. */
function enrichedColumns(phone: boolean): Column<Enriched>[] {
  return [
    { header: 'Email', value: (e) => e.result.email },
    ...profileColumns.map((name) => ({
      header: name,
      value: (e: Enriched) => (name === 'LinkedIn URL' ? e.column(name) || e.result.linkedin_url : e.column(name)),
    })),
    ...(phone ? [{ header: 'Phone Number', value: (e: Enriched) => e.result.phone }] : []),
  ];
}

function confirmMessage(count: number, phone: boolean): string {
  const credits = phone
    ? `up to ${formatCount(count * 2)} credits (email and phone)`
    : `up to ${formatCount(count)} credits`;
  return `Enrich ${formatCount(count)} ${count === 1 ? 'person' : 'people'}? This spends ${credits}.`;
}

async function readInput(ctx: CommandContext, opts: { file?: string; leadId: number[]; linkedinUrl: string[] }) {
  const { peopleFromFlags, readPeople } = await import('../../io/people-input.js');
  if (opts.file) return readPeople(opts.file === '-' ? '-' : resolve(ctx.cwd, opts.file), ctx.stdin);
  return peopleFromFlags(opts.leadId, opts.linkedinUrl);
}

/** An input with no one who can be sent: empty, a header only, or every row unusable (each named, up to three). */
function nobodyToEnrich(where: string, input: PeopleInput): UsageError {
  const { unusable } = input;
  if (!unusable.length)
    return new UsageError(
      `${where}: no people in it`,
      'Give the CSV or NDJSON `outreach people search` writes: a Person Id or LinkedIn URL for each person.',
    );
  const named = unusable
    .slice(0, 3)
    .map(({ person, reason }) => `${person.record ? 'line' : 'row'} ${person.row}: ${reason}`);
  const more = unusable.length > 3 ? `; and ${formatCount(unusable.length - 3)} more` : '';
  return new UsageError(
    `${where}: nobody can be enriched, nothing was sent: ${named.join('; ')}${more}`,
    'Each person needs a Person Id (a whole number from `people search`) or a LinkedIn profile URL.',
  );
}

const flags = {
  file: renamed(
    flag.text('people from a file (CSV or NDJSON from `people search`); - for stdin', { value: 'path' }),
    'from',
  ),
  leadId: flag.list('a person id from `people search`', {
    value: 'id',
    each: (raw) => {
      const id = parseLeadId(raw);
      if (id === undefined) throw new ValueProblem(`must be a person id (digits), not "${raw}"`);
      return id;
    },
  }),
  linkedinUrl: flag.list('a LinkedIn profile URL, such as https://www.linkedin.com/in/ada-lovelace', {
    value: 'url',
    each: (raw) => {
      if (!raw.trim()) throw new ValueProblem('must not be empty');
      const problem = linkedinProfileProblem(raw);
      if (problem)
        throw new ValueProblem(
          `must be a LinkedIn profile URL such as https://www.linkedin.com/in/ada-lovelace, not "${raw}" (${problem})`,
        );
      return raw.trim();
    },
  }),
  emailType: flag.choice(['work', 'personal'] as const, 'which email to reveal', { value: 'type', default: 'work' }),
  phone: flag.bool('reveal phone numbers too (costs more credits)'),
  yes: flag.bool('do not ask before spending credits', { short: '-y' }),
  wait: flag.bool('follow the jobs to the end and write the people found'),
  // The old name of the global --rate-limit-wait, which now also sets how long to wait for a window to reset.
  limitWait: hidden(flag.seconds('longest wait for a rate-limit window to reset before stopping', { allowZero: true })),
  rejects: flag.text('where to write the people not enriched (default: beside --file)', { value: 'file' }),
};
type Opts = Options<[], typeof flags>;

export default defineVerb({
  agent: { kind: 'paid', idempotent: false, job: true },
  exitCodes: [ExitCode.partial],
  description: [
    'People come from --file (the CSV or NDJSON `people search` writes; - for stdin) or from --lead-id /',
    '--linkedin-url. They are sent 100 a request, one request at a time, paced by `enrich rate-limits`: nothing',
    'is sent while a window is used up; it waits for the reset (saying so) when that is within --rate-limit-wait',
    '(15 minutes unless given), and otherwise stops with exit 5. Enriching spends credits: it asks first on a',
    'terminal; otherwise --yes is needed. A start whose answer was lost is sent again only if the service shows it',
    'was not counted.',
    '',
    'Without --wait it prints the request ids (follow them with `enrich status`). With --wait it follows the jobs',
    'and writes everyone found, Email first, with the columns of the search: --csv is ready for `prospects import`.',
    'Everyone not enriched (no email found, no id in the row, a repeat, not started) goes to',
    '<name>.not-enriched.csv (enrich-<time>.not-enriched.csv for stdin or flags; -2, -3 ... when another run holds',
    'that name) with the reason; then exit 3.',
  ].join('\n'),
  examples: [
    "outreach people search --title 'Head of Sales' --limit 500 --csv |\n" +
      '    outreach enrich contacts --file - --yes --wait --csv | outreach prospects import -',
    'enrich contacts --linkedin-url https://www.linkedin.com/in/ada-lovelace --email-type personal --phone --wait',
  ],
  flags,
  rules: [conflicts('from', 'leadId'), conflicts('from', 'linkedinUrl')],
  async run(ctx, opts) {
    checkAsked(ctx, opts);
    const input: PeopleInput = await readInput(ctx, opts);
    const count = input.people.length;
    // Nobody to send is a mistake (the wrong file, a search that found nothing upstream), not success: exit 2.
    if (count === 0)
      throw nobodyToEnrich(
        !opts.file ? 'the flags' : opts.file === '-' ? '--file: stdin' : `--file: ${opts.file}`,
        input,
      );
    const go = await confirmed(ctx, {
      yes: opts.yes,
      question: confirmMessage(count, opts.phone),
      refusal: `refusing to enrich ${formatCount(count)} ${count === 1 ? 'person' : 'people'} without --yes: it spends credits`,
      hint: 'Add --yes (there is no terminal to ask on).',
      declined: 'Nothing enriched.',
    });
    if (!go) return ExitCode.ok;
    if (opts.wait) return foundAsTheyCome(ctx, opts, input);
    const summary = await enrich(ctx, opts, input, async () => undefined);
    const ids = summary.requestIds.map((id) => `${id}\n`).join('');
    return valueResult({ requestIds: summary.requestIds, started: summary.started }, ids, ending(ctx, opts, summary));
  },
});

/** --wait: the people found, listed while the enrichment runs (it waits while the list is not read). A list that stops
 * being read (its output failed) stops the job, which still ends as a job does: its not-enriched file written, and how
 * it went said. A job that fails leaves no list at all: the error alone is said. */
function foundAsTheyCome(ctx: CommandContext, opts: Opts, input: PeopleInput): VerbResult {
  const found = new PassThrough({ objectMode: true, highWaterMark: 64 });
  let end: Ending = {};
  let said = false;
  const work = enrich(ctx, opts, input, async (person) => {
    if (!found.destroyed && !found.write(person)) await drainedOrGone(found);
    if (found.destroyed) throw new OutputClosed(true);
  }).then(
    (summary) => {
      end = ending(ctx, opts, summary);
      found.end();
    },
    (error: unknown) => found.destroy(error as Error),
  );
  ctx.onDispose(async () => {
    await work;
    if (!said && end.failing) ctx.outcome(end.failing, true);
  });
  const after = () => {
    said = true;
    return end;
  };
  return listResult<Enriched>(found, enrichedColumns(opts.phone), foundOptions(opts, input), { after });
}

/** Until the stream takes more, or is gone. */
function drainedOrGone(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}

/** Machine formats list people, so they need --wait; and someone must be named. */
function checkAsked(ctx: CommandContext, opts: Opts): void {
  if (!opts.wait && (ctx.output.format === 'csv' || ctx.output.format === 'ndjson'))
    throw new UsageError(
      `--${ctx.output.format} needs --wait: without it there are only request ids to print`,
      'Add --wait to get the people found, or leave the format out to print the request ids.',
    );
  if (opts.limitWait !== undefined && ctx.flags.rateLimitWait !== undefined)
    throw new UsageError('--limit-wait is the old name of --rate-limit-wait: give one of them');
  if (!opts.file && !opts.leadId.length && !opts.linkedinUrl.length)
    throw new UsageError('nobody to enrich: give --file FILE (or - for stdin), --lead-id or --linkedin-url');
}

/** The people found, as --json lists them: the input's own values, then what was revealed. */
function foundOptions(opts: Opts, input: PeopleInput): ListOptions<Enriched> {
  return {
    raw: (e) => ({
      ...(e.person.record ?? Object.fromEntries(input.header.map((h, i) => [h, e.person.cells[i]]))),
      email: e.result.email,
      ...(opts.phone && { phone: e.result.phone ?? null }),
      enrichment: { requestId: e.requestId, status: e.result.status },
    }),
  };
}

async function enrich(
  ctx: CommandContext,
  opts: Opts,
  input: PeopleInput,
  found: (person: Enriched) => Promise<void>,
): Promise<EnrichSummary> {
  const base =
    opts.file && opts.file !== '-'
      ? resolve(ctx.cwd, opts.file).replace(/\.(csv|ndjson|jsonl|txt)$/i, '')
      : resolve(ctx.cwd, `enrich-${fileStamp(ctx.clock.now())}`);
  const indexByName = new Map(input.header.map((h, i) => [normaliseHeader(h), i]));
  const { runEnrichment } = await import('../../jobs/enrich.js');
  return ctx.job((job) =>
    runEnrichment(job, {
      input,
      emailType: opts.emailType === 'personal' ? 'personal_email' : 'work_email',
      phone: opts.phone,
      wait: opts.wait,
      limitWaitMs: opts.limitWait,
      rejectsPath: opts.rejects ? resolve(ctx.cwd, opts.rejects) : `${base}.not-enriched.csv`,
      rejectsUnique: opts.rejects ? undefined : '.not-enriched.csv',
      found: (person, result, requestId) =>
        found({
          person,
          result,
          requestId,
          column: (name) => person.cells[indexByName.get(normaliseHeader(name)) ?? -1] ?? '',
        }),
    }),
  );
}

/** The run's one-line outcome and exit code; what stopped it, with how to go on. */
function ending(ctx: CommandContext, opts: Opts, summary: EnrichSummary): Ending {
  const parts = [
    `${formatCount(summary.started)} of ${formatCount(summary.people)} people started in ${summary.requestIds.length} request(s)`,
  ];
  if (summary.found !== null)
    parts.push(
      `${formatCount(summary.found)} with an email`,
      `${formatCount(summary.creditsCharged ?? 0)} credits charged`,
    );
  if (summary.notEnriched) parts.push(`${formatCount(summary.notEnriched)} not enriched: ${summary.rejectsFile}`);
  // With --wait, stdout holds people: the request ids of what was started go to stderr.
  if (opts.wait && summary.error && summary.requestIds.length) parts.push(`requests ${summary.requestIds.join(' ')}`);
  if (summary.error) {
    const failing = `Enrichment stopped: ${parts.join(', ')}.`;
    if (!(summary.error instanceof WaitTimedOut)) return { failing, error: summary.error };
    const later =
      `They go on at the service. Send ${summary.rejectsFile} again later (people revealed before are not ` +
      `charged again), or follow them: ${ctx.commandLine(['enrich', 'status', ...summary.requestIds])}`;
    return { failing, error: new WaitTimedOut(summary.error.what, summary.error.waitedMs, undefined, later) };
  }
  const code =
    summary.stoppedBy === 'rate-limit' ? ExitCode.rateLimited : exitCodeForItems(summary.notEnriched, summary.people);
  const line = `Enrichment: ${parts.join(', ')}.`;
  const followUp =
    !opts.wait && summary.requestIds.length
      ? `Follow up with: ${ctx.commandLine(['enrich', 'status', ...summary.requestIds, '--wait'])}`
      : undefined;
  if (code === ExitCode.ok) return { said: [line, followUp].filter(Boolean).join('\n'), exitCode: code };
  const limit = summary.rateLimit;
  if (limit)
    return {
      note: line,
      exitCode: code,
      failing: `rate-limited: the enrichment rate limit (${limit.window}) is used up until ${clockTime(Date.parse(limit.resetsAt))}`,
      hint:
        `Send ${summary.rejectsFile} again after that (people revealed before are not charged again), ` +
        'or let it wait longer at a limit with --limit-wait.',
    };
  return {
    note: line,
    said: followUp,
    exitCode: code,
    failing: `${formatCount(summary.notEnriched)} of ${formatCount(summary.people)} people not enriched`,
    hint: `${summary.rejectsFile} says why for each; send it again once fixed (people revealed before are not charged again).`,
  };
}
