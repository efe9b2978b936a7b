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
}

const bulk = (verb: string, done: string): JobWords => ({
  startOver: `Start a new bulk ${verb} without --resume; tasks already ${done} stay ${done}.`,
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
  },
  'dnc-add': {
    startOver: 'Start over with --restart: every value is sent again.',
    settings: { message: 'the list, --chunk-size or --column differ from the run in the journal' },
    unfinished: (path) => `an unfinished upload of this file is recorded in ${path}`,
  },
  'bulk-skip': bulk('skip', 'skipped'),
  'bulk-snooze': bulk('snooze', 'snoozed'),
};

export function journalRefusalWords(error: JournalRefused): UsageError {
  const { refusal, path } = error;
  // A job of a kind with no words of its own (none today) is still said, in general words.
  const job: JobWords = words[error.job as JobKind] ?? { startOver: 'Start over with --restart.' };
  switch (refusal.kind) {
    case 'missing':
      return new UsageError(`--resume: no journal at ${path}`, 'Start it without --resume.');
    case 'not-bound':
      return new UsageError(
        `--resume: ${path} is not this run's journal: ${refusal.differences.join('; ')}`,
        job.startOver,
      );
    case 'settings-differ':
      return new UsageError(
        `--resume: ${job.settings?.message ?? 'the settings differ from the run in the journal'}`,
        job.settings?.hint,
      );
    case 'unfinished':
      return new UsageError(
        job.unfinished?.(path, refusal.accepted) ?? `an unfinished run of this job is recorded in ${path}`,
        'Add --resume to send only the rest, or --restart to send everything again.',
      );
  }
}
