// What a job needs from the outside world. The CLI's CommandContext provides it; tests can provide their own.
import type { Readable, Writable } from 'node:stream';
import type { HttpClient } from '../api/http.js';
import type { Clock } from '../context.js';
import type { EmitEvent } from './events.js';
import type { NextStep } from '../next-step.js';

export interface JobContext {
  http(): Promise<HttpClient>;
  clock: Clock;
  /** Aborted on Ctrl-C: jobs start nothing new; requests already sent get a grace period to be answered. */
  signal: AbortSignal;
  /** Says the job keeps a journal: a failure or Ctrl-C from now on ends with how to continue it: by default this run
   * again with --resume, or `step`. */
  resumable(step?: NextStep): void;
  /** What a job got done before it stopped (a failure, Ctrl-C), said before how to continue it: "Accepted so far:
   * 2,000 rows in 2 chunks (not sent again)." The latest said wins. */
  doneSoFar(text: string): void;
  /** A next step in the words of the front end (the CLI: the command line that takes it, with this run's flags). */
  stepWords(step: NextStep): string;
  /** An option of the command as the front end calls it (the CLI: `limitWait` is `--limit-wait`). */
  optionName(key: string): string;
  cwd: string;
  /** The config folder, where a job may keep what it read for the next run (DNC lists' hashes). */
  configDir: string;
  stdin: Readable;
  /** Where an option's `-` writes (--save-mapping -). */
  stdout: Writable;
  /** How long the job may wait out a rate limit in all (--rate-limit-wait; 15 minutes unless given). */
  rateLimitWaitMs(): number;
  /** How long a job may wait for the service to finish (--wait-timeout). */
  waitTimeoutMs: number;
  /** Whether --timeout was given: then large chunks keep it instead of their own longer default. */
  timeoutGiven: boolean;
  emit: EmitEvent;
}
