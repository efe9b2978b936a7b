import { join, resolve } from 'node:path';
import { defineVerb } from '../../cli/verb.js';
import { arg, flag } from '../../cli/flags.js';
import { UsageError } from '../../errors.js';
import { ExitCode } from '../../cli/exit-codes.js';
import type { CommandContext } from '../../cli/command-context.js';
import { writeJson, writeOut } from '../../cli/render/output.js';
import { fileStamp, formatCount } from '../../format.js';
import { paginate } from '../../api/paginate.js';
import { listTasksPage } from '../../api/resources/tasks.js';
import type { IdSet } from '../../io/ids.js';
import { maxBulkSkipTasks } from '../../api/contract/tasks.js';
import type { BulkSkipPlan } from '../../jobs/bulk-skip.js';
import { hasFilters, toQuery, whereFilterFlags, whereFilters, type Filters } from './filters.js';
import { allPageSize } from './list.js';

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

/** Whether to go on: --yes, or a yes on a terminal. A resumed skip asks as the first run did: its journal may not be
 * the user's own doing. */
async function confirmed(ctx: CommandContext, ids: string[], yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!ctx.interactive)
    throw new UsageError(
      `refusing to skip ${formatCount(ids.length)} task(s) without --yes (no terminal to ask on)`,
      'Add --yes, or look first with --dry-run.',
    );
  const preview = ids.slice(0, 5).join(', ') + (ids.length > 5 ? `, … (${formatCount(ids.length - 5)} more)` : '');
  const message = `Skip ${formatCount(ids.length)} task${ids.length === 1 ? '' : 's'} (${preview})?`;
  if (await ctx.prompter.confirm({ message, default: false })) return true;
  ctx.info('Nothing skipped.');
  return false;
}

export default defineVerb({
  exitCodes: [ExitCode.partial],
  args: [arg.list('taskId')],
  description: [
    'Ids come from the arguments, --file (one per line, or a CSV with a taskId/id column), - for stdin, and/or',
    'the --where-* filters (the same as `tasks list`). They are de-duplicated and sent 100 a request, --concurrency',
    'batches at a time; each bulk action is followed until done. Once it has learnt how long batches take, a batch',
    "gives its place to the next when the service is due to finish it, while its status is checked (that check's",
    'round trip is not added to every batch). On a terminal it asks first; otherwise --yes is',
    'required. A journal (bulk-skip-<time>.journal) lets --resume continue after a crash or Ctrl-C without re-sending',
    'accepted batches. Tasks that could not be skipped are merged into bulk-skip-<time>.failed.csv; then exit 3.',
  ].join('\n'),
  examples: [
    'tasks bulk-skip --file ids.csv --yes --json',
    'outreach tasks list --status overdue | cut -f1 | outreach tasks bulk-skip - --yes',
    'tasks bulk-skip --where-status overdue --dry-run',
  ],
  flags: {
    file: flag.text('ids from a file: one per line, or a CSV with a taskId column; - for stdin', { value: 'path' }),
    yes: flag.bool('do not ask for confirmation', { short: '-y' }),
    dryRun: flag.bool('print the selected ids; skip nothing'),
    concurrency: flag.int('batches the service works on at once', { min: 1, max: 16, default: 4 }),
    resume: flag.optionalText('continue an interrupted bulk skip (default: the newest unfinished journal here)', {
      value: 'journal',
    }),
    ...whereFilterFlags,
  },
  async run(ctx, opts) {
    const where = whereFilters(opts);
    const started = ctx.clock.now();
    const { latestUnfinishedPlan, planBulkSkip, resumeBulkSkip, runBulkSkip } = await import('../../jobs/bulk-skip.js');
    const { jobBinding } = await import('../../jobs/journal.js');
    let plan: BulkSkipPlan;
    if (opts.resume !== undefined) {
      const path = typeof opts.resume === 'string' ? resolve(ctx.cwd, opts.resume) : latestUnfinishedPlan(ctx.cwd);
      if (!path)
        throw new UsageError(
          '--resume: no unfinished bulk-skip journal in this folder',
          'Give its path: --resume bulk-skip-<time>.journal',
        );
      if (opts.args[0].length || opts.file || hasFilters(where))
        throw new UsageError('--resume takes the selection from the journal; give no ids, --file or filters');
      plan = resumeBulkSkip(path, jobBinding(await ctx.http()), ctx.clock.now());
      ctx.info(
        `Resuming ${path}: ${plan.batches.filter((b) => b.bulkActionId).length} of ${plan.batches.length} batches were already accepted.`,
      );
      const left = plan.batches.filter((b) => !b.bulkActionId).flatMap((b) => b.ids);
      if (opts.dryRun) {
        plan.journal.close();
        for (const id of left) await writeOut(ctx.stdout, `${id}\n`);
        ctx.info(`Would skip ${formatCount(left.length)} task(s) not yet accepted.`);
        return ExitCode.ok;
      }
      let go = false;
      try {
        go = !left.length || (await confirmed(ctx, left, opts.yes));
      } finally {
        if (!go) plan.journal.close();
      }
      if (!go) return ExitCode.ok;
    } else {
      if (!opts.args[0].length && !opts.file && !hasFilters(where))
        throw new UsageError('no tasks selected: give ids, --file, - for stdin, or --where-* filters');
      const selection = await collect(ctx, opts.args[0], opts.file, where);
      const ids = selection.ids;
      if (selection.duplicates) ctx.info(`${formatCount(selection.duplicates)} duplicate id(s) dropped.`);
      if (!ids.length) {
        ctx.info('No task matches: nothing to skip.');
        return ExitCode.ok;
      }
      if (opts.dryRun) {
        for (const id of ids) await writeOut(ctx.stdout, `${id}\n`);
        ctx.info(
          `Would skip ${formatCount(ids.length)} task(s) in ${Math.ceil(ids.length / maxBulkSkipTasks)} request(s).`,
        );
        return ExitCode.ok;
      }
      if (!(await confirmed(ctx, ids, opts.yes))) return ExitCode.ok;
      const journal = join(ctx.cwd, `bulk-skip-${fileStamp(started)}.journal`);
      plan = planBulkSkip(journal, ids, jobBinding(await ctx.http()), ctx.clock.now());
    }
    const summary = await ctx.job((job) => runBulkSkip(job, plan, opts.concurrency));
    if (ctx.flags.json) await writeJson(ctx, summary);
    ctx.outcome(
      `Skipped ${formatCount(summary.skipped)} of ${formatCount(summary.total)} task(s); ` +
        `${formatCount(summary.failed)} failed.${summary.files.failed ? ` Failures: ${summary.files.failed}` : ''}`,
      summary.failed > 0,
    );
    return summary.failed ? ExitCode.partial : ExitCode.ok;
  },
});
