// Renders job events: progress as an ora spinner on a terminal's stderr, info lines as status lines. Nothing on
// stderr when it is not a terminal, or under --quiet or machine output. ora loads on the first progress event.
import type { Writable } from 'node:stream';
import type { JobEvent } from '../jobs/events.js';

type Spinner = { text: string; start(): unknown; stop(): unknown; clear(): unknown; render(): unknown };

export interface ProgressRenderer {
  emit(event: JobEvent): void;
  /** Writes a line of text past the spinner: cleared first, drawn again after. */
  print(write: () => void): void;
  /** Clears the spinner so what follows starts on a clean line. */
  stop(): void;
}

export function createProgressRenderer(
  stderr: Writable,
  enabled: boolean,
  info: (text: string) => void,
  warn: (text: string) => void = info,
  note: (text: string) => void = info,
): ProgressRenderer {
  let spinner: Spinner | undefined;
  let loading: Promise<void> | undefined;
  let text = '';
  let running = false;
  // Once stopped, late events (a unit settling after a failure) draw nothing: the command is ending.
  let stopped = false;
  const start = () => {
    // A terminal that reports no width (a pty without a size: `script`, some CI runners) sends ora into an endless
    // clearing loop: no spinner there.
    if (!enabled || running || !((stderr as { columns?: number }).columns! > 0)) return;
    running = true;
    loading ??= import('ora').then(({ default: ora }) => {
      spinner = ora({ stream: stderr, isEnabled: true, discardStdin: false }) as unknown as Spinner;
    });
    void loading.then(() => {
      if (!running || !spinner) return;
      spinner.text = text;
      spinner.start();
    });
  };
  const print = (write: () => void) => {
    spinner?.clear();
    write();
    if (running) spinner?.render();
  };
  return {
    print,
    emit(event) {
      if (event.type === 'info') return print(() => info(event.text));
      if (event.type === 'warning') return print(() => warn(event.text));
      if (event.type === 'note') return print(() => note(event.text));
      if (stopped) return;
      text = event.text;
      if (spinner && running) spinner.text = text;
      start();
    },
    stop() {
      stopped = true;
      running = false;
      spinner?.stop();
    },
  };
}
