// Renders job events: progress as an ora spinner on a terminal's stderr, info lines as status lines. Nothing on
// stderr when it is not a terminal, or under --quiet or machine output. ora loads on the first progress event.
import type { Writable } from 'node:stream';
import type { JobEvent } from '../jobs/events.js';
import { visible } from './terminal-text.js';

type Spinner = { text: string; start(): unknown; stop(): unknown; clear(): unknown; render(): unknown };

export interface ProgressRenderer {
  /** What a person is shown of a job (where it keeps its journal is for front ends that follow jobs). */
  emit(event: Exclude<JobEvent, { type: 'journal' }>): void;
  /** Writes a line of text past the spinner: cleared first, drawn again after. */
  print(write: () => void): void;
  /** What a request waits for; shown only once the wait passes half a second (most answers come sooner). undefined
   * clears it. */
  activity(text: string | undefined): void;
  /** Clears the spinner so what follows starts on a clean line. */
  stop(): void;
}

/** A wait shorter than this draws nothing: a spinner that flashes for 100 ms is noise. */
export const activityDelayMs = 500;

/** ora, and how to fit a line to the terminal: a line that wraps is drawn anew on every tick, one line lower each
 * time, so it is cut (less the spinner and its space, and the last column, where a terminal wraps). */
async function loadSpinner(stderr: Writable): Promise<{ spinner: Spinner; fitted: (line: string) => string }> {
  const [{ default: ora }, { truncate }] = await Promise.all([import('ora'), import('./render/fit.js')]);
  return {
    spinner: ora({ stream: stderr, isEnabled: true, discardStdin: false }) as unknown as Spinner,
    fitted: (line) => truncate(line, Math.max(10, ((stderr as { columns?: number }).columns ?? 80) - 3)),
  };
}

export function createProgressRenderer(
  stderr: Writable,
  enabled: boolean,
  sleep: (ms: number, signal: AbortSignal) => Promise<void>,
  info: (text: string) => void,
  warn: (text: string) => void = info,
  note: (text: string) => void = info,
): ProgressRenderer {
  let spinner: Spinner | undefined;
  let loading: Promise<void> | undefined;
  let text = '';
  let fitted = (line: string) => line;
  let running = false;
  // Once stopped, late events (a unit settling after a failure) draw nothing: the command is ending.
  let stopped = false;
  const start = () => {
    // A terminal that reports no width (a pty without a size: `script`, some CI runners) sends ora into an endless
    // clearing loop: no spinner there.
    if (!enabled || running || !((stderr as { columns?: number }).columns! > 0)) return;
    running = true;
    loading ??= loadSpinner(stderr).then((loaded) => {
      ({ spinner, fitted } = loaded);
    });
    void loading.then(() => {
      if (!running || !spinner) return;
      spinner.text = fitted(text);
      spinner.start();
    });
  };
  const print = (write: () => void) => {
    spinner?.clear();
    write();
    if (running) spinner?.render();
  };
  // The wait for an activity's spinner to show, cancelled when the request ends first.
  let activityDelay: AbortController | undefined;
  let activityShown = false;
  const endActivity = () => {
    activityDelay?.abort();
    activityDelay = undefined;
    if (!activityShown) return;
    activityShown = false;
    running = false;
    spinner?.stop();
  };
  return {
    print,
    activity(next) {
      if (!enabled || stopped) return;
      if (next === undefined) return endActivity();
      text = visible(next);
      if (activityShown) {
        if (spinner) spinner.text = fitted(text);
        return;
      }
      if (activityDelay) return;
      const delay = (activityDelay = new AbortController());
      sleep(activityDelayMs, delay.signal).then(
        () => {
          if (delay.signal.aborted) return;
          activityDelay = undefined;
          activityShown = true;
          start();
        },
        () => undefined,
      );
    },
    emit(event) {
      if (event.type === 'info') return print(() => info(event.text));
      if (event.type === 'warning') return print(() => warn(event.text));
      if (event.type === 'note') return print(() => note(event.text));
      if (stopped) return;
      // The spinner writes past the guard's sanitizing (it draws with escapes of its own): its text is made safe here.
      text = visible(event.text);
      if (spinner && running) spinner.text = fitted(text);
      start();
    },
    stop() {
      activityDelay?.abort();
      stopped = true;
      running = false;
      spinner?.stop();
    },
  };
}
