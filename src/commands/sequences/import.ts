import { flag } from '../../cli/flags.js';
import { conflicts, defineVerb } from '../../cli/verb.js';
import { ExitCode } from '../../cli/exit-codes.js';
import { importArgs, importFlags, runImportCommand } from '../prospects/import.js';

// The sequence-scoped import takes no --sync (it has no by-id form), and its step is the point of it.
const { sync: _sync, sequence: _sequence, step: _step, ...flags } = importFlags;

export default defineVerb({
  // Guarded as prospects import is: where it overwrites, or sends without the do-not-contact check.
  agent: {
    kind: 'write',
    idempotent: false,
    guardedWhen: { conflict: ['overwrite', 'upsert'], dncCheck: ['false'] },
    job: true,
  },
  exitCodes: [ExitCode.partial],
  args: importArgs,
  description: [
    'Imports a prospect CSV straight into a sequence step, through the sequence-scoped import',
    '(POST /v1/sequences/prospects/import-with-field-name): the same column matching, checks, chunks, journal,',
    '--resume, --wait and reports as `outreach prospects import` (see its --help), with --step required.',
  ].join('\n'),
  examples: [
    'sequences import leads.csv --step stA1intro --wait',
    'sequences import leads.csv --step stA1intro --conflict addMissingFields --tags webinar --json',
  ],
  flags: {
    ...flags,
    step: flag.requiredText('the sequence step the prospects join', { value: 'id' }),
  },
  rules: [conflicts('resume', 'restart')],
  run: (ctx, opts) => runImportCommand(ctx, { ...opts, sync: false, sequence: undefined }, true),
});
