// Runs the real CLI in-process (runCli) with a test Context: exact stdout, stderr and exit code.
import { runCli, parseCli } from '../../src/cli/run.js';
import { groups } from '../../src/commands/manifest.js';
import { createTestContext, type TestContextOptions } from './context.js';
import { onSandboxRequest } from './sandbox-events.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

export interface RunOptions extends TestContextOptions {
  /**
   * Ctrl-C, the way src/context.ts delivers it, once this holds. It is checked as the run starts and as each request
   * reaches a test sandbox (before that request is answered), never on a timer. When it holds, that sandbox's latency
   * is held from then on (startTestSandbox({ latencyMs })): the request that met the condition is still in flight.
   */
  abortWhen?: () => boolean;
}

export async function run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
  const captured = createTestContext(options);
  const { abortWhen } = options;
  let unsubscribe = () => {};
  if (abortWhen) {
    let aborted = false;
    const check = (hold?: () => void) => {
      if (aborted || !abortWhen()) return;
      aborted = true;
      hold?.();
      // Not from inside the sandbox's request handling: the command hears it as it would a signal.
      queueMicrotask(() => captured.abort());
    };
    unsubscribe = onSandboxRequest(({ sleeps }) => check(() => sleeps.hold()));
    check();
  }
  try {
    const code = await runCli(captured.ctx, argv, groups);
    return { code, stdout: captured.stdout(), stderr: captured.stderr(), sleeps: captured.sleeps };
  } finally {
    unsubscribe();
  }
}

export async function parse(argv: string[], options: TestContextOptions = {}): Promise<{ verb: string; options: any }> {
  const captured = createTestContext(options);
  return parseCli(captured.ctx, argv, groups);
}

/** The hint under an error that names no next step of its own: bad input (exit 2), or a refusal by the service (1). */
export const usageHint = 'hint: Nothing was changed. Add --help to the command to see what it takes.\n';
export const debugHint = 'hint: Run it again with --debug to see each request and answer.\n';
