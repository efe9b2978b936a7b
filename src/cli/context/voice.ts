// What a command says on stderr, and how loudly: --quiet and machine output (--json, --csv) silence some lines, never
// the ones a failing script's log needs. Every line has the keys masked (redact) before it goes out.
import type { Writable } from 'node:stream';
import type { OutputSettings } from '../globals.js';
import type { ProgressRenderer } from '../progress.js';

export interface Voice {
  /** A status line on stderr, unless --quiet or machine output. */
  info(message: string): void;
  /** A warning on stderr, unless --quiet. */
  warn(message: string): void;
  /** A line on stderr unless --quiet, also under --json (waits, what went wrong): stdout stays machine-readable. */
  note(message: string): void;
  /** A job's one-line outcome on stderr: shown for people, and always (even under --json or --quiet) when the command
   * exits non-zero, so a script's log says what went wrong while stdout holds the JSON. */
  outcome(line: string, failing: boolean): void;
  /** Why the command ends with a non-zero exit and what to do next: `error:` and `hint:` lines, always. */
  failure(error: string, hint: string): void;
  /** A line for --debug (or OUTREACH_DEBUG=1) only. */
  debug(message: string): void;
  /** Removes the API key from text bound for the terminal, even if a server echoed it. */
  redact(text: string): string;
}

export interface VoiceSettings {
  stderr: Writable;
  output: OutputSettings;
  debugOn: boolean;
  redact(text: string): string;
  /** Lines that may land under a spinner go through it, so it is cleared first and drawn again after. */
  progress(): Pick<ProgressRenderer, 'print'>;
}

export function createVoice({ stderr, output, debugOn, redact, progress }: VoiceSettings): Voice {
  const line = (text: string) => stderr.write(`${redact(text)}\n`);
  return {
    info(message) {
      if (!output.quiet && !output.machine) line(message);
    },
    warn(message) {
      if (!output.quiet) line(`warning: ${message}`);
    },
    outcome(text, failing) {
      if (failing || (!output.quiet && !output.machine)) progress().print(() => line(text));
    },
    failure(error, hint) {
      progress().print(() => line(`error: ${error}\nhint: ${hint}`));
    },
    note(message) {
      if (!output.quiet) progress().print(() => line(message));
    },
    debug(message) {
      if (debugOn) line(`[debug] ${message}`);
    },
    redact,
  };
}
