import { z } from 'zod';
import { defineVerb, repeatable } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { writeJson } from '../../cli/render/output.js';
import { formatCount } from '../../format.js';
import { conflictActions } from '../../api/contract/prospects.js';
import { runImport, maxChunkRows, type ImportSummary } from '../../jobs/import/run-import.js';

const encodings = ['utf8', 'utf16le', 'utf16be', 'latin1', 'windows-1252'] as const;
const delimiters: Record<string, string> = { ',': ',', ';': ';', tab: '\t', '\\t': '\t', '\t': '\t', '|': '|' };

const schema = z
  .object({
    args: z.tuple([z.string().min(1)]),
    encoding: z.enum(encodings, { error: `--encoding takes ${encodings.join(', ')}` }).optional(),
    delimiter: z
      .string()
      .refine((d) => d in delimiters, { message: 'takes , ; tab or |' })
      .transform((d) => delimiters[d]!)
      .optional(),
    map: z.array(z.string()).default([]),
    mapping: z.string().optional(),
    saveMapping: z.string().optional(),
    ignoreUnknown: z.boolean().default(false),
    sync: z.boolean().default(false),
    chunkSize: z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(maxChunkRows, `at most ${formatCount(maxChunkRows)} rows per request`)
      .optional(),
    concurrency: z.coerce
      .number({ error: 'must be a number' })
      .int()
      .min(1, 'must be at least 1')
      .max(8, 'at most 8')
      .default(2),
    conflict: z.enum(conflictActions, { error: `--conflict takes ${conflictActions.join(', ')}` }).default('noUpdate'),
    sequence: z.string().min(1).optional(),
    step: z.string().min(1).optional(),
    tags: z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      )
      .default([]),
    verify: z.boolean().default(false),
    strict: z.boolean().default(false),
    dryRun: z.boolean().default(false),
    wait: z.boolean().optional(),
    resume: z.boolean().default(false),
    restart: z.boolean().default(false),
  })
  .refine((o) => !o.sequence || o.step, {
    message: '--sequence needs --step: the service targets a step',
    path: ['sequence'],
  });

function summaryLine(s: ImportSummary): string {
  const parts = [
    `${formatCount(s.total)} rows read`,
    `${formatCount(s.sent)} sent in ${s.chunks} chunk${s.chunks === 1 ? '' : 's'}`,
    `${formatCount(s.rejected)} rejected`,
  ];
  if (s.succeeded !== null)
    parts.push(
      `${formatCount(s.succeeded)} succeeded`,
      `${formatCount(s.unchanged ?? 0)} unchanged`,
      `${formatCount(s.failed ?? 0)} failed`,
    );
  const files = Object.entries(s.files)
    .filter(([kind]) => kind !== 'journal' && kind !== 'mapping')
    .map(([, path]) => path);
  return `${s.mode === 'dry-run' ? 'Checked' : 'Imported'} ${s.file}: ${parts.join(', ')}.${files.length ? ` Reports: ${files.join(', ')}` : ''}`;
}

export default defineVerb({
  usage: 'import <file>',
  summary: 'Import a prospect CSV of any size (streamed, chunked, resumable), or - for stdin',
  description: [
    'Columns are matched to field labels ignoring case, spaces, "_" and "-" (see `outreach fields list --system`);',
    'an Email column is required. Each row is checked first: bad CSV records, empty or malformed emails and duplicate',
    'emails go to <name>.rejected.csv with their row number and reason; the rest is sent in chunks (up to 100,000 rows',
    'and 90 MB each) with --concurrency requests at a time. <name>.import-journal records each accepted chunk, so',
    '--resume after a crash or Ctrl-C sends only what was not accepted.',
    '',
    'With --wait (the default on a terminal) it waits for the service to finish and writes <name>.results.csv (every',
    'row: row, email, outcome, reason) and <name>.failed.csv (failed and rejected rows in your columns, ready to fix',
    'and import again). Existing prospects that --conflict left as they were are "unchanged", not failed.',
    'Exit 0 when every row succeeded or was unchanged, 3 when any was rejected or failed, 2 when nothing could be sent.',
  ].join('\n'),
  examples: [
    'prospects import leads.csv',
    'prospects import leads.csv --map "Work Email=Email" --map "Org=Company" --save-mapping leads.map.json',
    'prospects import leads.csv --mapping leads.map.json --conflict upsert --tags webinar,q4 --wait',
    'prospects import export.csv --encoding windows-1252 --delimiter ";" --dry-run',
    'prospects import leads.csv --sequence sqOnbrd1 --step stA1intro --verify',
    'prospects import leads.csv --resume',
    'cat leads.csv | outreach prospects import - --json',
  ],
  configure(cmd) {
    cmd
      .option('--encoding <name>', `input encoding: ${encodings.join(', ')} (default: UTF-8, or UTF-16 by BOM)`)
      .option('--delimiter <char>', 'field separator: , ; tab | (default: sniffed from the header)')
      .option(
        '--map <column=field>',
        'map a CSV column to a field label; "column=" ignores it (repeatable)',
        repeatable,
      )
      .option('--mapping <file.json>', 'column mapping from a file {"column": "Field label" | null}')
      .option('--save-mapping <file.json>', 'write the mapping used, to reuse with --mapping')
      .option('--ignore-unknown', 'skip columns that match no field instead of stopping')
      .option('--conflict <action>', `existing prospects: ${conflictActions.join(', ')}`, 'noUpdate')
      .option('--sequence <id>', 'the sequence of --step (informational; the step identifies it)')
      .option('--step <id>', 'add the prospects to this sequence step')
      .option('--tags <a,b>', 'tags to give the imported prospects')
      .option('--verify', 'ask the service to verify the emails')
      .option('--sync', 'use the synchronous import (by field id), which answers row by row')
      .option(
        '--chunk-size <rows>',
        `rows per request (max ${formatCount(maxChunkRows)}; default ${formatCount(maxChunkRows)}, 5,000 with --sync)`,
      )
      .option('--concurrency <n>', 'requests under way at once', '2')
      .option('--strict', 'check the whole file first; send nothing if any row is bad')
      .option('--dry-run', 'check and report only; send nothing')
      .option('--wait', 'wait for the service and write the results files (default on a terminal)')
      .option('--no-wait', 'return once every chunk is accepted')
      .option('--resume', 'continue an interrupted import from its journal')
      .option('--restart', 'ignore an unfinished journal and send everything again');
  },
  schema,
  async run(ctx, opts) {
    const summary = await ctx.job((job) =>
      runImport(job, {
        input: opts.args[0],
        encoding: opts.encoding,
        delimiter: opts.delimiter,
        maps: opts.map,
        mappingFile: opts.mapping,
        saveMapping: opts.saveMapping,
        ignoreUnknown: opts.ignoreUnknown,
        sync: opts.sync,
        chunkSize: opts.chunkSize,
        concurrency: opts.concurrency,
        conflict: opts.conflict,
        step: opts.step,
        tags: opts.tags,
        verify: opts.verify,
        strict: opts.strict,
        dryRun: opts.dryRun,
        wait: opts.wait ?? (ctx.stderrIsTTY && !ctx.output.machine),
        resume: opts.resume,
        restart: opts.restart,
      }),
    );
    if (ctx.flags.json) await writeJson(ctx, summary);
    else if (!ctx.output.quiet) ctx.stderr.write(`${summaryLine(summary)}\n`);
    if (summary.total > 0 && summary.rejected === summary.total) return ExitCode.usage;
    if (summary.rejected > 0 || (summary.failed ?? 0) > 0) return ExitCode.partial;
    if (
      summary.mode !== 'dry-run' &&
      summary.succeeded === null &&
      !ctx.output.quiet &&
      summary.requestIds.length &&
      !ctx.flags.json
    ) {
      ctx.info(
        `Not waiting for the service. Follow up with: outreach prospects import ${opts.args[0]} --resume --wait`,
      );
    }
    return ExitCode.ok;
  },
});
