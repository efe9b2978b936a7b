import { existsSync, rmSync } from 'node:fs';
import { arg, flag, renamed } from '../../cli/flags.js';
import { conflicts, defineVerb, type Options } from '../../cli/verb.js';
import { confirmed } from '../../cli/confirm.js';
import type { CommandContext } from '../../cli/command-context.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { jobResult } from '../../cli/result.js';
import { UsageError } from '../../errors.js';
import { formatCount, plural } from '../../format.js';
import { dncSources } from '../../io/dnc-sources.js';
import type { SyncUpload, UnfinishedSync } from '../../jobs/dnc-sync.js';
import type { DncSyncDiff, RecordedDiff } from '../../jobs/dnc-sync-record.js';
import type { InputFile } from '../../jobs/input.js';
import { defaultDncChunk, maxDncChunk } from './add.js';
import { encodingFlag, skipLinesFlag } from '../csv-flags.js';
import { visible } from '../../visible-text.js';

const byType = (t: { email: number; domain: number }) =>
  `${formatCount(t.email + t.domain)} (${plural(t.email, 'email')}, ${plural(t.domain, 'domain')})`;

/** The difference, as a person reads it before anything is sent. */
function diffText(d: DncSyncDiff): string {
  const reasons = Object.entries(d.leftOut.reasons)
    .map(([why, n]) => `${why}: ${formatCount(n)}`)
    .join(', ');
  return [
    `${d.file}: ${d.source.title}, ${plural(d.rows, 'row')}, against "${visible(d.list.name)}" ` +
      `(${d.list.id}, ${plural(d.list.values, 'value')})`,
    `  new            ${byType(d.new)}` +
      (d.coveredByDomain ? `; ${formatCount(d.coveredByDomain)} of them stopped already by a domain on the list` : ''),
    `  already there  ${byType(d.alreadyThere)}`,
    `  invalid        ${formatCount(d.invalid)}${d.files.rejected ? ` (each with its reason in ${d.files.rejected})` : ''}`,
    `  duplicates     ${formatCount(d.duplicates)} (in the file)`,
    `  left out       ${formatCount(d.leftOut.rows)}${reasons ? ` (${reasons})` : ''}` +
      (d.files.leftOut ? `, each in ${d.files.leftOut}` : ''),
  ].join('\n');
}

const newCount = (d: DncSyncDiff) => d.new.email + d.new.domain;

/** As dnc add and an import: some values invalid is exit 3, every one of them 2 (nothing valid to send). */
function invalidOutcome(d: DncSyncDiff | undefined, sent = false): [ExitCode, { failing?: string; hint?: string }] {
  if (!d?.invalid) return [ExitCode.ok, {}];
  const valid = sent || d.rows - d.leftOut.rows - d.invalid > 0;
  return [
    valid ? ExitCode.partial : ExitCode.usage,
    {
      failing: valid ? `${plural(d.invalid, 'row')} invalid` : 'every value is invalid: nothing to send',
      hint: d.files.rejected ? `Each row of ${d.files.rejected} says why.` : undefined,
    },
  ];
}

/** The new values of a diff read back from its JSON (an agent's preview); undefined when it has none. */
function newValues(value: unknown): number | undefined {
  const { email, domain } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return typeof email === 'number' && typeof domain === 'number' ? email + domain : undefined;
}

const syncArgs = [arg.text('file')] as const;
const syncFlags = {
  list: flag.requiredText('the DNC list to bring up to date', { value: 'id' }),
  // --from TOOL is taken too (the name the issue gave it); the vocabulary keeps --from for an input file's old name.
  source: renamed(
    flag.choice(dncSources, 'the tool that wrote the file, also --from (default: recognised by its header)', {
      value: 'tool',
    }),
    'from',
  ),
  column: flag.text(
    "read the values from this column (a known tool's rules, or an opt-out flag or status column, still apply)",
    {
      value: 'name',
    },
  ),
  encoding: encodingFlag,
  skipLines: skipLinesFlag,
  dryRun: flag.bool('show the difference only; send nothing'),
  yes: flag.bool('send the new values without asking', { short: '-y' }),
  chunkSize: flag.int('items per request', { min: 1, max: maxDncChunk, default: defaultDncChunk }),
  concurrency: flag.int('requests under way at once', { min: 1, max: 16, default: 4 }),
  resume: flag.bool('continue an interrupted sync from its journal'),
  restart: flag.bool('ignore an unfinished sync of this file and diff it again'),
  keepJournal: flag.bool('keep the journal and the file of new values once they are sent'),
};
type SyncOptions = Options<typeof syncArgs, typeof syncFlags>;

export default defineVerb({
  // The values it would add: the rows already on the list, invalid or left out touch nothing.
  agent: { kind: 'write', idempotent: true, job: true, affected: (preview) => newValues(preview.new) },
  exitCodes: [ExitCode.partial],
  args: syncArgs,
  description: [
    "Reads another tool's suppression or unsubscribe export as it comes, recognised by its header: HubSpot",
    '(unsubscribes and bounces; contacts with "Unsubscribed from all email"), Mailchimp (unsubscribed, cleaned, or an',
    'audience export with a status), lemlist (unsubscribes: value,source,createdAt; its LinkedIn URLs and phone numbers',
    'left out), Instantly (block list: bl_value, or Blocked Email), Smartlead (block list: email_or_domain), Apollo',
    '(contacts at stage "Do Not Contact", or bounced), or a plain',
    'column of emails and domains: any other CSV is read by the column `dnc add` would read (its email column before',
    'a website or URL), or the one --column names; where such a CSV has an opt-out flag (Email Opt Out,',
    'Unsubscribed, HasOptedOutOfEmail: set to true, 1, yes or a date) or a status column (Status: unsubscribed,',
    'bounced, cleaned, blocked...), only the rows it marks are opt-outs. A LinkedIn, Google, Outlook or Salesforce',
    'contacts export without either is refused (every customer would become an opt-out) unless --source plain or',
    "--column says to read every row. --column on a tool's export reads the value from that column, under the",
    "tool's rules. A row with nothing in it is left out. --source (or --from) names the tool when the",
    'header fits several. Values are normalised as `dnc add` does. Rows that are not opt-outs in their tool (a Mailchimp member',
    'still subscribed, an Apollo contact at stage "Cold") are left out, counted, and written to <name>.left-out.csv',
    'with their row and why; invalid values go to <name>.rejected.csv with their row and reason (on a dry run,',
    "<name>.dry-run.left-out.csv and <name>.dry-run.rejected.csv: a real run's are never replaced by a look).",
    '',
    'The difference against the list (new, already there, invalid, duplicates, left out; by type; of the new, those',
    "a domain on the list stops already: sent all the same, as a person's opt-out must outlast it) is shown before",
    'anything is sent. --dry-run stops there; otherwise it asks on a terminal, or --yes. The new values are written to',
    '<name>.dnc-sync-new.csv and uploaded as `dnc add` uploads (journaled in <name>.dnc-sync-journal): after Ctrl-C or',
    'a failure, --resume --yes sends only what was not accepted (not for - : stdin is read once, and keeps no journal),',
    'showing the difference the stopped run showed, with the same --json keys and exit.',
    'Exit 3 when any row was invalid, 2 when every value was (nothing valid to send) or nothing was sent for want of',
    '--yes. --encoding reads a file that is not UTF-8 (UTF-16 is recognised by its BOM); --skip-lines N skips the',
    'lines above the header (by default a preamble is found, but lines that are emails or domains are values).',
  ].join('\n'),
  examples: [
    'dnc sync hubspot-unsubscribes.csv --list dncGlobal1 --yes --json',
    'dnc sync blocklist.csv --list dncGlobal1 --source smartlead --yes',
    'dnc sync crm-contacts.csv --list dncGlobal1 --column "Work Email" --dry-run',
  ],
  flags: syncFlags,
  rules: [conflicts('resume', 'restart'), conflicts('dryRun', 'yes'), conflicts('dryRun', 'resume')],
  async run(ctx, opts) {
    const file = opts.args[0];
    // What comes from stdin cannot be read again: it is copied to a private file, and keeps no journal to resume.
    if (file === '-' && opts.resume)
      throw new UsageError('--resume: a sync of stdin keeps no journal (stdin cannot be read again)');
    const { openJobInput } = await import('../../jobs/input.js');
    const input = await openJobInput(ctx, file);
    try {
      return await syncInput(ctx, opts, input);
    } finally {
      await input.cleanup();
    }
  },
});

async function syncInput(ctx: CommandContext, opts: SyncOptions, input: InputFile) {
  const file = input.fromStdin ? 'stdin' : opts.args[0];
  const sync = await import('../../jobs/dnc-sync.js');
  const options = {
    path: input.path,
    name: file,
    listId: opts.list,
    from: opts.source,
    column: opts.column,
    encoding: opts.encoding,
    skipLines: opts.skipLines,
    base: input.base,
    journaled: !input.fromStdin,
    // stdin's values stay beside its private copy, removed with it: nothing in the folder to resume or mistake.
    valuesPath: input.fromStdin ? `${input.path}.new.csv` : undefined,
  };
  const upload = {
    ...options,
    keepJournal: opts.keepJournal,
    chunkSize: opts.chunkSize,
    concurrency: opts.concurrency,
  };
  if (opts.resume) return resume(ctx, sync, upload, opts);
  const stamp = sync.exportStamp(input.path); // before the diff reads it
  const unfinished = sayEarlierSync(ctx, opts, sync.unfinishedSync, input, file);
  const diff = await ctx.job((job) => sync.diffAgainstList(job, options, !opts.dryRun));
  const [invalidCode, failing] = invalidOutcome(diff);
  // --json names the file as it was given (- for stdin), as an import's does; the text says "stdin".
  const asGiven = { ...diff, file: opts.args[0]! };
  if (opts.dryRun || !newCount(diff)) {
    if (diff.files.new) rmSync(diff.files.new, { force: true });
    delete diff.files.new;
    // Over an unfinished sync, the line to send is the one that continues it (said above).
    const toSend =
      newCount(diff) && !unfinished
        ? ` To add the ${plural(newCount(diff), 'new value')}: ${ctx.sameCommandLine(['--dry-run'], ['--yes'])}`
        : '';
    const outcome = opts.dryRun
      ? `${diffText(diff)}\nDry run: nothing was sent.${toSend}`
      : `${diffText(diff)}\nNothing new to add.`;
    return jobResult({ ...asGiven, sent: 0, ...(opts.dryRun ? { dryRun: true } : {}) }, outcome, invalidCode, failing);
  }
  const refusal = `refusing to add ${plural(newCount(diff), 'value')} to ${diff.list.id} without --yes (no terminal to ask on)`;
  const refusalHint = 'The difference is above; give --yes to send it, or --dry-run to only look.';
  // The file of new values goes unless they are sent (a refusal, a no).
  if (!opts.yes && !ctx.interactive) {
    // Refused, as a job's summary is said whatever its exit: --json gives the difference a script asked for.
    rmSync(diff.files.new!, { force: true });
    delete diff.files.new;
    return jobResult({ ...asGiven, sent: 0 }, diffText(diff), ExitCode.usage, { failing: refusal, hint: refusalHint });
  }
  const go = await confirmed(ctx, {
    yes: opts.yes,
    question: `Add ${plural(newCount(diff), 'value')} to "${visible(diff.list.name)}"?`,
    refusal,
    hint: refusalHint,
    declined: 'Nothing added.',
    preview: diffText(diff),
  }).catch((error: unknown) => {
    rmSync(diff.files.new!, { force: true });
    throw error;
  });
  if (!go) {
    rmSync(diff.files.new!, { force: true });
    return;
  }
  const sent = await ctx.job((job) => sync.applySync(job, { ...upload, stamp, diff, resume: false }));
  if (!opts.keepJournal) {
    rmSync(diff.files.new!, { force: true });
    delete diff.files.new;
  }
  return jobResult(
    { ...asGiven, sent: sent.sent, chunks: sent.chunks },
    `Added ${plural(sent.sent, 'value')} to "${visible(diff.list.name)}" (${diff.list.id}) from ${file}.`,
    invalidCode,
    failing,
  );
}

/** The line that continues an earlier sync: this one, less `drop`, plus `add`, with the --list and --chunk-size the
 * stopped run had (a resume must match them) where they differ from this run's. A value read back from the journal
 * that the flag would refuse is not suggested. */
function continueLine(ctx: CommandContext, opts: SyncOptions, earlier: UnfinishedSync, drop: string[], add: string[]) {
  const given: Array<[string, string]> = [];
  if (earlier.listId !== undefined && earlier.listId !== opts.list) given.push(['--list', earlier.listId]);
  const size = earlier.chunkSize;
  if (size !== undefined && size !== opts.chunkSize && size <= maxDncChunk) given.push(['--chunk-size', String(size)]);
  return ctx.sameCommandLine(
    drop,
    [...add, ...given.flat()],
    given.map(([flag]) => flag),
  );
}

/** An earlier sync of this file that stopped with chunks accepted: a new run is refused (a dry run is told). Its line
 * to continue goes on in the chunks the stopped run cut, to its list: its --chunk-size and --list, whatever this
 * run's are. A dry run sends nothing and leaves the journal be: it may look at the difference over an unfinished sync. */
function sayEarlierSync(
  ctx: CommandContext,
  opts: SyncOptions,
  unfinishedSync: (base: string) => UnfinishedSync | undefined,
  input: InputFile,
  file: string,
): boolean {
  const earlier = opts.restart || input.fromStdin ? undefined : unfinishedSync(input.base);
  if (!earlier?.accepted) return false;
  const stopped = `an earlier sync of ${file} stopped with ${plural(earlier.accepted, 'chunk')} accepted`;
  if (!opts.dryRun)
    throw new UsageError(
      stopped,
      `Continue it: ${continueLine(ctx, opts, earlier, ['--dry-run'], ['--resume'])}; or diff again from the start with --restart.`,
    );
  const line = continueLine(ctx, opts, earlier, ['--dry-run'], ['--resume', '--yes']);
  ctx.emit({ type: 'warning', text: `${stopped}; continue it with: ${line}` });
  return true;
}

/** --resume: the new values an interrupted run wrote, sent from where its journal stopped. The difference that run
 * showed (kept in its journal) is shown again, and decides the exit as it did: 3 when some rows were invalid. */
async function resume(
  ctx: CommandContext,
  sync: typeof import('../../jobs/dnc-sync.js'),
  upload: SyncUpload,
  opts: SyncOptions,
) {
  const paths = sync.syncPaths(upload.base);
  const earlier = existsSync(paths.values) ? sync.unfinishedSync(upload.base) : undefined;
  if (!earlier)
    throw new UsageError(`--resume: no interrupted sync of ${upload.name} to continue`, 'Run it without --resume.');
  // Refused before its difference is shown or a question asked: the values left go to the list they were diffed
  // against, in the chunks the journal counts.
  if ((earlier.listId ?? opts.list) !== opts.list || (earlier.chunkSize ?? opts.chunkSize) !== opts.chunkSize)
    throw new UsageError(
      `--resume: the interrupted sync of ${upload.name} was to --list ${earlier.listId ?? opts.list} with --chunk-size ` +
        `${earlier.chunkSize ?? opts.chunkSize}; this run gives --list ${opts.list} with --chunk-size ${opts.chunkSize}`,
      // A chunk size this version's --chunk-size refuses cannot be given again: only a new diff goes on.
      (earlier.chunkSize ?? 0) > maxDncChunk
        ? `Its chunks are larger than --chunk-size takes (at most ${maxDncChunk}): diff it again with --restart.`
        : `Continue it: ${continueLine(ctx, opts, earlier, [], [])}; or diff again for the list you meant with --restart.`,
    );
  const changed = sync.exportChanged(upload, earlier.journal);
  if (changed)
    throw new UsageError(
      `--resume: ${changed}`,
      `Diff it again from the start: ${ctx.sameCommandLine(['--resume'], ['--restart'])} ` +
        '(values already added are found there, not sent twice).',
    );
  const diff = resumedDiff(await sync.recordedDiff(ctx, upload, earlier.journal), upload, paths);
  const go = await confirmed(ctx, {
    yes: opts.yes,
    question: `Send the rest of ${paths.values} to ${upload.listId}?`,
    refusal: `refusing to send the rest of the sync to ${upload.listId} without --yes (no terminal to ask on)`,
    declined: 'Nothing added.',
    preview: diff && diffText(diff),
  });
  if (!go) return;
  const sent = await ctx.job((job) => sync.applySync(job, { ...upload, resume: true }));
  if (!upload.keepJournal) rmSync(paths.values, { force: true });
  const to = diff ? `"${diff.list.name}" (${upload.listId})` : upload.listId;
  return jobResult(
    {
      ...(diff ?? { file: upload.name, list: { id: upload.listId } }),
      sent: sent.sent,
      sentBefore: sent.sentBefore,
      chunks: sent.chunks,
      resumed: true,
    },
    `Added ${plural(sent.sent, 'value')} to ${to} from ${upload.name} ` +
      `(resumed: ${formatCount(sent.sentBefore)} of them sent by the interrupted run).`,
    // Values were sent: some rows invalid is a partial success here, whatever the counts read back say.
    ...invalidOutcome(diff, true),
  );
}

/** The recorded difference as this run says it: its file and list as this run names them (the journal's settings
 * matched them), its reports where they still are. */
function resumedDiff(
  recorded: RecordedDiff | undefined,
  upload: SyncUpload,
  paths: { rejected: string; leftOut: string },
): DncSyncDiff | undefined {
  if (!recorded) return undefined;
  const files: DncSyncDiff['files'] = {};
  if (recorded.invalid && existsSync(paths.rejected)) files.rejected = paths.rejected;
  if (recorded.leftOut.rows && existsSync(paths.leftOut)) files.leftOut = paths.leftOut;
  return { ...recorded, file: upload.name, list: { ...recorded.list, id: upload.listId }, files };
}
