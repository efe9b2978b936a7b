import { UsageError } from '../../errors.js';
import { encodingFlag, skipLinesFlag } from '../csv-flags.js';
import { conflicts, defineVerb, requires, type Options } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import { arg, flag, ValueProblem } from '../../cli/flags.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { jobResult, type Failure, type VerbResult } from '../../cli/result.js';
import { formatCount } from '../../format.js';
import { conflictActions, maxImportRows } from '../../api/contract/prospects.js';
import { maxChunkRows, type ImportSummary } from '../../jobs/import/run-import.js';
import { visible } from '../../visible-text.js';

const delimiters: Record<string, string> = { ',': ',', ';': ';', tab: '\t', '\\t': '\t', '\t': '\t', '|': '|' };

function readDelimiter(raw: string): string {
  const delimiter = delimiters[raw];
  if (delimiter === undefined) throw new ValueProblem(`must be one of , ; tab |, not ${JSON.stringify(raw)}`);
  return delimiter;
}

/** How many of the rejected rows the do-not-contact lists stopped, by list (most first): the lists that stopped
 * any, or every list on a dry run (the rehearsal says what each would stop). */
function dncPart(s: ImportSummary): string {
  if (!s.dnc.checked) return '';
  const shown = s.dnc.lists.filter((list) => list.rows || s.mode === 'dry-run').sort((a, b) => b.rows - a.rows);
  if (!shown.length) return s.mode === 'dry-run' ? ' (the account has no do-not-contact lists)' : '';
  const byList = shown.map((list) => `"${visible(list.name)}" ${formatCount(list.rows)}`).join(', ');
  return ` (${formatCount(s.dnc.rows)} on do-not-contact lists: ${byList})`;
}

function summaryLine(s: ImportSummary): string {
  const parts = [
    `${formatCount(s.total)} row${s.total === 1 ? '' : 's'} read`,
    s.mode === 'dry-run'
      ? `${formatCount(s.wouldSend ?? 0)} would be sent`
      : `${formatCount(s.sent)} sent in ${s.chunks} chunk${s.chunks === 1 ? '' : 's'}` +
        (s.sentBefore ? ` (${formatCount(s.sentBefore)} of them by an earlier run)` : ''),
    `${formatCount(s.rejected)} rejected${dncPart(s)}`,
    // Said on its own: it is about every row, not the rejected ones.
    ...(s.dnc.checked ? [] : ['no row checked against the do-not-contact lists (--no-dnc-check)']),
  ];
  if (s.succeeded !== null)
    parts.push(
      `${formatCount(s.succeeded)} succeeded`,
      `${formatCount(s.unchanged ?? 0)} unchanged`,
      `${formatCount(s.failed ?? 0)} failed`,
      ...(s.unknown ? [`${formatCount(s.unknown)} unknown (report not downloaded)`] : []),
    );
  const files = Object.entries(s.files)
    .filter(([kind]) => kind !== 'journal' && kind !== 'mapping')
    .map(([, path]) => path);
  const reports = files.length ? ` Reports: ${files.join(', ')}` : '';
  const file = s.file === '-' ? 'stdin' : s.file;
  return `${s.mode === 'dry-run' ? 'Checked' : 'Imported'} ${file}: ${parts.join(', ')}.${reports}`;
}

/** The rows left out for being on a do-not-contact list. */
const onLists = (s: ImportSummary) => (s.dnc.checked ? s.dnc.rows : 0);

/** Why an import that did not fully succeed ends as it does, and what to send again. */
function importFailure(s: ImportSummary): Failure {
  const { rejected, failed, results } = s.files;
  const listed = onLists(s);
  // The failed file is the user's own columns, without a reason: the results file gives each row's.
  const hint = failed
    ? `${failed} holds the rows to fix, in your own columns, and ${results} says why for each; fix them and import ` +
      `that file${listed ? ' (rows on a do-not-contact list are not in it: they are to be left out, not fixed)' : ''}.`
    : rejected && listed === s.rejected
      ? `Every row of ${rejected} is on a do-not-contact list, left out on purpose: nothing to fix.`
      : rejected
        ? `Each row of ${rejected} says why; fix them and import that file with --ignore-unknown (its row and reason ` +
          `columns are not fields)${listed ? '; rows on a do-not-contact list are there to be left out, not fixed' : ''}.`
        : 'Check the import later with `outreach prospects import-status`.';
  if (s.total > 0 && s.rejected === s.total)
    return {
      failing: `every row ${listed === s.total ? 'is on a do-not-contact list' : 'was rejected'}: nothing was sent`,
      hint,
    };
  const parts = [
    s.rejected ? `${formatCount(s.rejected)} of ${formatCount(s.total)} rows rejected` : '',
    s.failed ? `${formatCount(s.failed)} of ${formatCount(s.sent)} rows sent failed at the service` : '',
    s.unknown ? `${formatCount(s.unknown)} with no known outcome (the report was not downloaded)` : '',
  ].filter(Boolean);
  return { failing: parts.join('; '), hint };
}

export const importArgs = [arg.text('file')] as const;

export const importFlags = {
  encoding: encodingFlag,
  skipLines: skipLinesFlag,
  delimiter: flag.custom('field separator: , ; tab | (default: sniffed from the header)', readDelimiter, {
    value: 'char',
  }),
  map: flag.list('map a CSV column to a field label; "column=" ignores it; a repeated name is column#2', {
    value: 'column=field',
  }),
  mapping: flag.text('column mapping from a file {"column": "Field label" | null}', { value: 'file.json' }),
  saveMapping: flag.text('write the mapping used, to reuse with --mapping', { value: 'file.json' }),
  ignoreUnknown: flag.bool('skip columns that match no field instead of stopping'),
  conflict: flag.choice(conflictActions, 'what to do with existing prospects', {
    value: 'action',
    default: 'noUpdate',
  }),
  sequence: flag.text('the sequence of --step (informational; the step identifies it)', {
    value: 'id',
    nonEmpty: true,
  }),
  step: flag.text('add the prospects to this sequence step', { value: 'id', nonEmpty: true }),
  tags: flag.commaList('tags to give the imported prospects'),
  verify: flag.bool('ask the service to verify the emails'),
  sync: flag.bool('use the synchronous import (by field id), which answers row by row'),
  chunkSize: flag.int(
    `rows per request (default: ${formatCount(maxChunkRows / 20)} first, growing by half up to ${formatCount(maxChunkRows)}; ` +
      '5,000 with --sync)',
    {
      value: 'rows',
      min: 1,
      max: maxImportRows,
    },
  ),
  concurrency: flag.int('requests under way at once', { min: 1, max: 8, default: 2 }),
  strict: flag.bool('check the whole file first; send nothing if any row is bad'),
  dncCheck: flag.negatable(
    'check every row against the do-not-contact lists (the default)',
    'send rows without reading the do-not-contact lists',
    true,
  ),
  dncCache: flag.negatable(
    'take a list unchanged since an earlier import from its copy (the default)',
    'read every do-not-contact list from the service, even one whose copy is current',
    true,
  ),
  dryRun: flag.bool('check and report only (rejected rows to NAME.dry-run.rejected.csv); send nothing'),
  wait: flag.negatable(
    'wait for the service and write the results files (default on a terminal)',
    'return once every chunk is accepted',
  ),
  resume: flag.bool('continue an interrupted import from its journal'),
  restart: flag.bool('ignore an unfinished journal and send everything again'),
  keepJournal: flag.bool(
    'keep the journal once the import is finished (removed by default: nothing is left to resume)',
  ),
};

export default defineVerb({
  // Guarded where it overwrites, or sends without the do-not-contact check: a preview and a token first.
  agent: {
    kind: 'write',
    idempotent: false,
    guardedWhen: { conflict: ['overwrite', 'upsert'], dncCheck: ['false'] },
    job: true,
  },
  exitCodes: [ExitCode.partial],
  args: importArgs,
  description: [
    'Columns are matched to field labels ignoring case, spaces, "_" and "-" (see `outreach fields list --system`);',
    'an Email column is required; known exports (LinkedIn, Apollo, HubSpot, Salesforce, Google, Outlook, Mailchimp)',
    "map by their headers. Several columns for one field (Apollo's six phones) feed it together: each row takes the",
    'first not empty, a direct line first and a home number last (README lists the order).',
    '',
    'Each row is checked first: bad CSV records, empty or malformed emails, emails on a do-not-contact list of the',
    'account (the address, its domain or a parent domain; every list is read once before the first row, and',
    '--no-dnc-check skips it) and duplicate emails (in any case, a domain in Unicode or in ASCII) go to',
    '<name>.rejected.csv (row, reason, then the record whole); the rest is sent in chunks (up to 40,000 rows and',
    "89 MB each, under the service's 90 MB; the first ones smaller, so the service starts early) with --concurrency",
    'requests at a time.',
    '<name>.import-journal records each accepted chunk, so --resume after a crash or Ctrl-C sends only what was not',
    'accepted. When a do-not-contact list changed since, rows in chunks the service accepted keep the verdicts of that',
    'run, and every other row is left out if a list held it then or holds it now; an accepted chunk whose rows were',
    'edited since is not sent again with a row a list holds now (exit 1). A journal of an older outreach is refused',
    'when the lists changed.',
    '',
    'Records are read as Excel and Python read CSV, each ending at its own LF, CRLF or CR (files joined with cat mix',
    'them). Spaces around a quoted value are layout ("Ann" , reads Ann); a row with text after a closing quote ("Ann"x)',
    'or a NUL byte is rejected, never sent with its quotes. Values are sent without whitespace at their edges, quoted',
    'or not ("Ann " would greet "Hi Ann ,"); whitespace inside a value is kept.',
    '',
    'With --wait (the default on a terminal) it waits for the service to finish and writes <name>.results.csv (every',
    'row: row, email, outcome, reason) and <name>.failed.csv (failed and rejected rows in your columns, ready to fix',
    'and import again). Existing prospects that --conflict left as they were are "unchanged", not failed.',
    'Files of your rows (rejected, failed) keep your values byte for byte, so a fixed file imports the same; the',
    'results report puts a quote before cells a spreadsheet would run as a formula (=, +, -, @).',
    'Exit 0 when every row succeeded or was unchanged, 3 when any was rejected or failed, 2 when nothing could be sent.',
  ].join('\n'),
  examples: [
    'prospects import leads.csv --map "Work Email=Email" --map "Org=Company" --save-mapping leads.map.json',
    'prospects import leads.csv --mapping leads.map.json --conflict upsert --tags webinar,q4 --wait',
    'cat leads.csv | outreach prospects import - --json',
  ],
  flags: importFlags,
  rules: [
    requires('sequence', 'step', 'the service targets a step'),
    conflicts('resume', 'restart'),
    conflicts('sync', 'tags'),
  ],
  run: (ctx, opts) => runImportCommand(ctx, opts),
});

/** Everything `prospects import` and `sequences import` share but their endpoint. */
export async function runImportCommand(
  ctx: CommandContext,
  opts: Options<typeof importArgs, typeof importFlags>,
  sequenceScoped = false,
): Promise<VerbResult> {
  if (opts.args[0] === '-' && opts.resume)
    throw new UsageError('--resume needs a file: an import from stdin keeps no journal');
  if (opts.args[0] === '-' && opts.mapping === '-')
    throw new UsageError('--mapping -: stdin already holds the rows; give the mapping as a file');
  if (opts.saveMapping === '-' && ctx.output.machine)
    throw new UsageError('--save-mapping - and the machine output both go to stdout; give --save-mapping a file');
  const { runImport, StrictRefused } = await import('../../jobs/import/run-import.js');
  const summary = await ctx
    .job((job) =>
      runImport(job, {
        input: opts.args[0],
        encoding: opts.encoding,
        delimiter: opts.delimiter,
        skipLines: opts.skipLines,
        maps: opts.map,
        pickEmailColumn: ctx.interactive
          ? (candidates) =>
              ctx.prompter.select({
                message: 'Several columns could be the email. Which one is the prospect’s?',
                choices: candidates.map((c) => ({ value: c, name: c })),
              })
          : undefined,
        mappingFile: opts.mapping,
        saveMapping: opts.saveMapping,
        ignoreUnknown: opts.ignoreUnknown,
        sync: opts.sync,
        chunkSize: opts.chunkSize,
        concurrency: opts.concurrency,
        conflict: opts.conflict,
        step: opts.step,
        sequenceScoped,
        tags: opts.tags ?? [],
        verify: opts.verify,
        strict: opts.strict,
        dryRun: opts.dryRun,
        wait: opts.wait ?? (ctx.stderrIsTTY && !ctx.output.machine),
        resume: opts.resume,
        restart: opts.restart,
        keepJournal: opts.keepJournal,
        dncCheck: opts.dncCheck,
        dncCache: opts.dncCache,
      }),
    )
    .catch((error: unknown) => {
      if (error instanceof StrictRefused) throw new UsageError(`--strict: ${error.message}`, error.hint);
      throw error;
    });
  // A file of which no row could be sent is bad input (2); rows all left out for a do-not-contact list are not.
  const code =
    summary.total > 0 && summary.rejected === summary.total && onLists(summary) < summary.total
      ? ExitCode.usage
      : summary.sent > 0 && summary.failed === summary.sent
        ? ExitCode.failure // every row sent failed at the service
        : summary.rejected > 0 || (summary.failed ?? 0) > 0 || summary.unknown
          ? ExitCode.partial
          : ExitCode.ok;
  // Sent without waiting: the outcome is fetched by the same command (its --map flags and all: --resume checks they
  // match) resumed with --wait; stdin keeps no journal, so its import ids are what is left to follow.
  const followUp =
    summary.mode === 'dry-run' || summary.succeeded !== null || !summary.requestIds.length
      ? undefined
      : `Follow up with: ${(opts.args[0] === '-'
          ? summary.requestIds.map((id) => ctx.commandLine(['prospects', 'import-status', id]))
          : [ctx.sameCommandLine(['--restart', '--resume', '--wait', '--no-wait'], ['--resume', '--wait'])]
        ).join(' ; ')}`;
  if (code === ExitCode.ok)
    return jobResult(
      summary,
      summaryLine(summary),
      code,
      followUp ? { said: `Not waiting for the service. ${followUp}` } : {},
    );
  const failure = importFailure(summary);
  return jobResult(summary, summaryLine(summary), code, {
    ...failure,
    hint: followUp ? `${failure.hint} ${followUp} for the outcome of the rows sent.` : failure.hint,
  });
}
