// A sync's difference kept in its journal by the run that sends it, so that a --resume (which reads no export and
// no list) says it again: the same counts, the same JSON keys, the same exit for invalid rows. Read back from a file,
// it is checked whole before anything of it is shown: counts are whole numbers, texts are bounded and made visible,
// the tool is one outreach knows; anything else, and the resume goes on without it. The difference's type lives here,
// where dnc-sync.ts takes it from.
import { z } from 'zod';
import { dncSources, type DncSourceName } from '../io/dnc-sources.js';
import { visible } from '../visible-text.js';

type ByType = { email: number; domain: number };

/** A sync's difference: what `dnc sync` shows before anything is sent, and its --json. */
export interface DncSyncDiff {
  file: string;
  list: { id: string; name: string; values: number };
  /** How the file was read: "a Mailchimp unsubscribed export". */
  source: { name: DncSourceName; title: string };
  rows: number;
  new: ByType;
  /** Of the new, those a domain on the list (the value's, or a parent of it) stops already: sent all the same, since a
   * person's opt-out must outlast the domain's entry. */
  coveredByDomain: number;
  alreadyThere: ByType;
  invalid: number;
  duplicates: number;
  /** Rows left out: not opt-outs in their tool, or without a value; by why. */
  leftOut: { rows: number; reasons: Record<string, number> };
  files: { rejected?: string; leftOut?: string; new?: string };
}

/** The difference without its files: the paths are this run's to say (they come from the export's own name). */
export type RecordedDiff = Omit<DncSyncDiff, 'files'>;

/** The longest texts kept: a list's name and the file's are the service's and the user's, a title names a column. */
const most = { file: 4096, id: 1024, name: 4096, title: 1024 };
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const byType = z.strictObject({ email: count, domain: count });
const text = (max: number) =>
  z
    .string()
    .max(max)
    .transform((t) => visible(t));
const recorded = z.strictObject({
  file: text(most.file),
  list: z.strictObject({ id: text(most.id), name: text(most.name), values: count }),
  source: z.strictObject({ name: z.enum(dncSources), title: text(most.title) }),
  rows: count,
  new: byType,
  // An older outreach's record has none.
  coveredByDomain: count.default(0),
  alreadyThere: byType,
  invalid: count,
  duplicates: count,
  leftOut: z.strictObject({
    rows: count,
    // As countReason keeps them: 20 kinds and "other", each one line of 200 characters at most.
    reasons: z
      .record(text(200), count)
      .refine((reasons) => Object.keys(reasons).length <= 21)
      .transform((reasons) => Object.assign(Object.create(null) as Record<string, number>, reasons)),
  }),
});

/** What the journal keeps of a difference: its texts cut to what the reader takes, so a resume reads it back. */
export function diffRecord(diff: DncSyncDiff): RecordedDiff {
  const { files: _files, file, list, source, ...counts } = diff;
  return {
    ...counts,
    file: file.slice(0, most.file),
    list: { ...list, id: list.id.slice(0, most.id), name: list.name.slice(0, most.name) },
    source: { ...source, title: source.title.slice(0, most.title) },
  };
}

/** The difference a journal kept (`Journal.header.said`), or undefined when it kept none (an older outreach's) or
 * one outreach would not have written. */
export function readDiffRecord(said: unknown): RecordedDiff | undefined {
  const parsed = recorded.safeParse(said);
  return parsed.success ? parsed.data : undefined;
}
