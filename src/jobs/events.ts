// What a job tells the person running it. Jobs emit events and print nothing; the CLI renders them (a spinner or a
// progress line on a terminal's stderr, nothing under --quiet or --json).
export type JobEvent =
  /** The state of work under way; replaces the previous progress. */
  | { type: 'progress'; text: string }
  /** A line worth keeping: a chunk finished, a resume skipped work. */
  | { type: 'info'; text: string }
  /** A line for the person even under --json or --csv (not under --quiet): a wait they should know about. */
  | { type: 'note'; text: string }
  /** Something guessed or odd that the user should know even under --json (not under --quiet). */
  | { type: 'warning'; text: string }
  /** Where the job keeps its journal, once it does: for a front end that follows jobs (`outreach mcp`); the CLI says
   * it only with the command that continues a job. */
  | { type: 'journal'; path: string };

export type EmitEvent = (event: JobEvent) => void;
