// The verbs of a bulk action over tasks (bulk-skip, bulk-snooze), declared once: the selection (ids, a file, stdin,
// filters), the confirmation, --dry-run, --resume, the journal and the failed CSV; each action gives its words, its
// own flags and how it acts.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defineVerb, type Options, type AgentEffect } from '../../cli/verb.js';
import { arg, flag, type FlagSpec, type FlagValues } from '../../cli/flags.js';
import { UsageError } from '../../errors.js';
import { ExitCode, exitCodeForItems } from '../../cli/exit-codes.js';
import type { CommandContext } from '../../cli/command-context.js';
import { doneResult, jobResult, valueResult, type VerbResult } from '../../cli/result.js';
import { fileStamp, formatCount } from '../../format.js';
import { paginate } from '../../api/paginate.js';
import { listTasksPage } from '../../api/resources/tasks.js';
import type { IdSet } from '../../io/ids.js';
import type { BulkPlan, TaskAction } from '../../jobs/bulk-action.js';
import { hasFilters, toQuery, whereFilterFlags, whereFilters, type Filters } from './filters.js';
import { allPageSize } from './list.js';
import { confirmed } from '../../cli/confirm.js';

async function collect(ctx: CommandContext, ids: string[], file: string | undefined, filters: Filters): Promise<IdSet> {
  const { IdSet, idsFromCsvOrLines, idsFromFile } = await import('../../io/ids.js');
  const set = new IdSet();
  const fromStdin = ids.includes('-');
  if (fromStdin && file === '-') throw new UsageError('give - (stdin) once: as an argument or as --file -');
  for (const id of ids) if (id !== '-') set.add(id.trim());
  // A file or stdin that holds no id is a mistake (the wrong file, an empty pipe), not "nothing to do".
  const noIds = (where: string) => new UsageError(`${where}: no task ids in it`, 'Give one task id per line.');
  if (file) {
    const before = set.ids.length + set.duplicates;
    for await (const id of idsFromFile(file, ctx, `--file: ${file}`)) set.add(id);
    if (set.ids.length + set.duplicates === before) throw noIds(`--file: ${file}`);
  }
  if (fromStdin) {
    const before = set.ids.length + set.duplicates;
    // Lines of `tasks list` output (TSV) are taken too: the id is the first column.
    for await (const id of idsFromCsvOrLines(ctx.stdin, false, 'stdin', true)) set.add(id);
    if (set.ids.length + set.duplicates === before) throw noIds('stdin');
  }
  if (hasFilters(filters)) {
    const http = await ctx.http();
    const query = toQuery(filters);
    for await (const task of paginate((page, pageSize) => listTasksPage(http, { ...query, page, pageSize }), {
      pageSize: allPageSize,
    }))
      set.add(task.taskId);
  }
  return set;
}

/** The words of an action: skip / skipped. */
interface Words {
  verb: string;
  done: string;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** Whether to go on: --yes, or a yes on a terminal. A resumed action asks as the first run did: its journal may not
 * be the user's own doing. */
function confirmedFor(ctx: CommandContext, words: Words, ids: string[], yes: boolean): Promise<boolean> {
  const preview = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, … (${formatCount(ids.length - 5)} more)` : '');
  return confirmed(ctx, {
    yes,
    question: `${capital(words.verb)} ${formatCount(ids.length)} task${ids.length === 1 ? '' : 's'} (${preview})?`,
    refusal: `refusing to ${words.verb} ${formatCount(ids.length)} task(s) without --yes (no terminal to ask on)`,
    hint: 'Add --yes, or look first with --dry-run.',
    declined: `Nothing ${words.done}.`,
  });
}

const selectionFlags = {
  file: flag.text('ids from a file: one per line, or a CSV with a taskId column; - for stdin', { value: 'path' }),
  yes: flag.bool('do not ask for confirmation', { short: '-y' }),
  concurrency: flag.int('batches the service works on at once', { min: 1, max: 16, default: 4 }),
  ...whereFilterFlags,
};

type Common = typeof selectionFlags & {
  dryRun: FlagSpec<boolean>;
  resume: FlagSpec<string | true | undefined>;
  keepJournal: FlagSpec<boolean>;
};
type CommonOptions = Options<readonly [ReturnType<typeof arg.list>], Common>;

export interface BulkVerbSpec<F extends Record<string, FlagSpec<unknown>>> {
  agent: AgentEffect;
  job: TaskAction['job'];
  words: Words;
  batchSize: number;
  description: string[];
  examples: string[];
  flags: F;
  /** The action of a new run, from its options (a resumed run takes it from the journal). */
  action(ctx: CommandContext, opts: CommonOptions & FlagValues<F>): Promise<TaskAction>;
  /** Flags of the action that a resume must not be given (the journal holds their values). */
  fromJournal?: string[];
}

type Where = ReturnType<typeof whereFilters>;

/** The ids a dry run would act on, one a line, and how many. */
function wouldDo(words: Words, ids: string[], more = ''): VerbResult {
  const text = ids.map((id) => `${id}\n`).join('');
  return valueResult(ids, text, { said: `Would ${words.verb} ${formatCount(ids.length)} task(s)${more}.` });
}

/** The plan a journal holds (--resume), confirmed; what to show instead (a dry run), or undefined after a no. */
async function resumedPlan<F extends Record<string, FlagSpec<unknown>>>(
  ctx: CommandContext,
  spec: BulkVerbSpec<F>,
  opts: CommonOptions,
  where: Where,
): Promise<BulkPlan | VerbResult | undefined> {
  const { job, words } = spec;
  const { latestUnfinishedPlan, resumeBulk, SnoozeEnded } = await import('../../jobs/bulk-action.js');
  const { jobBinding } = await import('../../jobs/journal.js');
  const path = typeof opts.resume === 'string' ? resolve(ctx.cwd, opts.resume) : latestUnfinishedPlan(job, ctx.cwd);
  if (!path)
    throw new UsageError(
      `--resume: no unfinished ${job} journal in this folder`,
      `Give its path: --resume ${job}-<time>.journal`,
    );
  if (opts.args[0].length || opts.file || hasFilters(where))
    throw new UsageError('--resume takes the selection from the journal; give no ids, --file or filters');
  const given = (spec.fromJournal ?? []).filter((name) => (opts as Record<string, unknown>)[name] !== undefined);
  if (given.length)
    throw new UsageError(`--resume takes --${given.join(', --')} from the journal; give no --${given[0]}`);
  let plan: BulkPlan;
  try {
    plan = resumeBulk(job, path, jobBinding(await ctx.http()), ctx.clock.now());
  } catch (error) {
    if (!(error instanceof SnoozeEnded)) throw error;
    const rest = ctx.commandLine(['tasks', 'bulk-snooze', '--resume', path, '--dry-run']);
    const again = ctx.commandLine(['tasks', 'bulk-snooze', '-', '--until', '2d', '--yes']);
    throw new UsageError(`--resume: ${error.message}`, `Snooze the rest anew: ${rest} | ${again}`);
  }
  const accepted = plan.batches.filter((b) => b.bulkActionId).length;
  ctx.info(`Resuming ${path}: ${accepted} of ${plan.batches.length} batches were already accepted.`);
  const left = plan.batches.filter((b) => !b.bulkActionId).flatMap((b) => b.ids);
  if (opts.dryRun) {
    plan.journal.close();
    return wouldDo(words, left, ' not yet accepted');
  }
  let go = false;
  try {
    go = !left.length || (await confirmedFor(ctx, words, left, opts.yes));
  } finally {
    if (!go) plan.journal.close();
  }
  return go ? plan : undefined;
}

/** A new plan of the tasks selected, confirmed and journaled; what to show instead (nothing selected, a dry run), or
 * undefined after a no. */
async function newPlan<F extends Record<string, FlagSpec<unknown>>>(
  ctx: CommandContext,
  spec: BulkVerbSpec<F>,
  given: CommonOptions & FlagValues<F>,
  where: Where,
): Promise<BulkPlan | VerbResult | undefined> {
  const { job, words } = spec;
  const started = ctx.clock.now();
  if (!given.args[0].length && !given.file && !hasFilters(where))
    throw new UsageError('no tasks selected: give ids, --file, - for stdin, or --where-* filters');
  const action = await spec.action(ctx, given);
  const selection = await collect(ctx, given.args[0], given.file, where);
  const ids = selection.ids;
  if (selection.duplicates) ctx.info(`${formatCount(selection.duplicates)} duplicate id(s) dropped.`);
  if (!ids.length) return doneResult(`No task matches: nothing to ${words.verb}.`);
  if (given.dryRun) return wouldDo(words, ids, ` in ${Math.ceil(ids.length / spec.batchSize)} request(s)`);
  if (!(await confirmedFor(ctx, words, ids, given.yes))) return undefined;
  const { planBulk, failedPathOf } = await import('../../jobs/bulk-action.js');
  const { jobBinding } = await import('../../jobs/journal.js');
  // This run's own journal (and failed file, named after it): two runs in the same second never share one.
  const { claimUniquePath } = await import('../../io/safe-file.js');
  const journal = claimUniquePath(join(ctx.cwd, `${job}-${fileStamp(started)}.journal`), '.journal', (path) => [
    failedPathOf(path),
  ]);
  try {
    return planBulk(action, journal, ids, jobBinding(await ctx.http()), ctx.clock.now());
  } catch (error) {
    rmSync(journal, { force: true }); // nothing was sent: no journal to resume
    throw error;
  }
}

export function bulkActionVerb<F extends Record<string, FlagSpec<unknown>>>(spec: BulkVerbSpec<F>) {
  const { words } = spec;
  return defineVerb({
    agent: spec.agent,
    exitCodes: [ExitCode.partial],
    args: [arg.list('taskId')],
    description: spec.description.join('\n'),
    examples: spec.examples,
    flags: {
      ...selectionFlags,
      dryRun: flag.bool(`print the selected ids; ${words.verb} nothing`),
      resume: flag.optionalText(
        `continue an interrupted bulk ${words.verb} (default: the newest unfinished journal here)`,
        { value: 'journal' },
      ),
      keepJournal: flag.bool(
        'keep the journal once every task is done (removed by default: nothing is left to resume)',
      ),
      ...spec.flags,
    } as Common & F,
    async run(ctx, given) {
      // The flags every bulk action has, typed as such (the action's own reach it as given).
      const opts = given as unknown as CommonOptions & FlagValues<F>;
      const where = whereFilters(opts);
      const plan =
        opts.resume !== undefined ? await resumedPlan(ctx, spec, opts, where) : await newPlan(ctx, spec, opts, where);
      if (!plan) return ExitCode.ok;
      if ('kind' in plan) return plan;
      const { runBulk } = await import('../../jobs/bulk-action.js');
      const summary = await ctx.job((jobCtx) => runBulk(jobCtx, plan, opts.concurrency, opts.keepJournal));
      return jobResult(
        summary,
        `${capital(words.done)} ${formatCount(summary[words.done] as number)} of ${formatCount(summary.total)} task(s); ` +
          `${formatCount(summary.failed)} failed.${summary.files.failed ? ` Failures: ${summary.files.failed}` : ''}`,
        exitCodeForItems(summary.failed, summary.total),
        summary.failed
          ? {
              failing: `${formatCount(summary.failed)} of ${formatCount(summary.total)} task(s) were not ${words.done}`,
              hint: summary.files.failed
                ? `Each row of ${summary.files.failed} says why; send them again with --file ${summary.files.failed}.`
                : 'The lines above say why.',
            }
          : {},
      );
    },
  });
}
