// A job's refusal of its journal (jobs/journal.ts JournalRefused), said in the words of the CLI's flags: --resume to
// go on with it, --restart to replace it. Each job names its own settings and what starting over means.
import { UsageError, type JournalRefused } from '../errors.js';
import type { JobKind } from '../jobs/journal.js';

interface JobWords {
  /** What --restart (or a new run) does to the work already done. */
  startOver: string;
  /** The settings a resume must keep, and what to do when they differ. */
  settings?: { message: string; hint?: string };
  /** An unfinished run of this job, and how many of its units were accepted. */
  unfinished?: (path: string, accepted: number) => string;
  /** What to do with a journal it cannot use: one of another version, one not trusted. */
  unusable?: { version: string; untrusted: string };
}

/** A journal a restartable job cannot use is replaced by --restart. */
const replaced = {
  version: 'Start over with --restart (the journal is replaced), or move the file aside.',
  untrusted: 'Move it aside, or start over with --restart.',
};

/** A bulk action has no --restart: its journal is moved aside and the action started anew. */
const newBulkAction = 'Move it aside, and start the bulk action anew without --resume.';

const bulk = (verb: string, done: string): JobWords => ({
  startOver: `Start a new bulk ${verb} without --resume; tasks already ${done} stay ${done}.`,
  unusable: { version: newBulkAction, untrusted: newBulkAction },
});

const words: Record<JobKind, JobWords> = {
  import: {
    startOver: 'Start over with --restart: everything is sent again.',
    settings: {
      message: 'the flags or the column mapping differ from the run recorded in the journal',
      hint: 'Use the same flags as the first run, or --restart to send everything again.',
    },
    unfinished: (path, accepted) =>
      `an unfinished import of this file is recorded in ${path} (${accepted} chunk(s) accepted)`,
    unusable: replaced,
  },
  'dnc-add': {
    startOver: 'Start over with --restart: every value is sent again.',
    settings: { message: 'the list, --chunk-size or --column differ from the run in the journal' },
    unfinished: (path) => `an unfinished upload of this file is recorded in ${path}`,
    unusable: replaced,
  },
  'bulk-skip': bulk('skip', 'skipped'),
  'bulk-snooze': bulk('snooze', 'snoozed'),
};

/** A journal's settings as the flags (or what else) that set them, to say which one a resume changed. */
const settingWords: Record<string, string> = {
  chunkSize: '--chunk-size',
  chunkRows: '--chunk-size',
  firstChunkRows: '--chunk-size',
  chunkGrowth: '--chunk-size',
  column: '--column',
  listId: 'the list',
  mapping: 'the column mapping',
  delimiter: '--delimiter',
  encoding: '--encoding',
  skipLines: '--skip-lines',
  dncCheck: '--no-dnc-check',
  dncLists: 'the do-not-contact lists (changed since)',
  export: 'the export (changed since)',
  mode: '--sync or --dry-run',
  conflictAction: '--conflict',
  stepId: '--step',
  endpoint: 'sequences import vs prospects import',
  tags: '--tags',
  verifyProspects: '--verify',
};

export function journalRefusalWords(error: JournalRefused): UsageError {
  const { refusal, path } = error;
  // A job of a kind with no words of its own (none today) is still said, in general words.
  const job: JobWords = words[error.job as JobKind] ?? { startOver: 'Start over with --restart.' };
  switch (refusal.kind) {
    case 'missing':
      return new UsageError(
        `--resume: no journal at ${path}`,
        'A finished job removes its journal (unless --keep-journal): if this one finished, nothing is left to ' +
          'resume; else start it without --resume.',
      );
    case 'not-bound':
      return new UsageError(
        `--resume: ${path} is not this run's journal: ${refusal.differences.join('; ')}`,
        job.startOver,
      );
    case 'settings-differ': {
      // One run checked the lists and the other did not: the lists' state differs only because of that.
      const keys = refusal.keys.includes('dncCheck') ? refusal.keys.filter((key) => key !== 'dncLists') : refusal.keys;
      const which = [...new Set(keys.map((key) => settingWords[key] ?? key))].join(', ');
      const message = job.settings?.message ?? 'the settings differ from the run in the journal';
      return new UsageError(`--resume: ${message}${which ? ` (here: ${which})` : ''}`, job.settings?.hint);
    }
    case 'unusable': {
      const hints = job.unusable ?? replaced;
      return new UsageError(`${path}: ${refusal.problem}`, refusal.untrusted ? hints.untrusted : hints.version);
    }
    case 'unfinished':
      return new UsageError(
        job.unfinished?.(path, refusal.accepted) ?? `an unfinished run of this job is recorded in ${path}`,
        'Add --resume to send only the rest, or --restart to send everything again.',
      );
  }
}
