// Runs the real CLI in-process (runCli) with a test Context: exact stdout, stderr and exit code.
import { runCli, parseCli } from '../../src/cli/run.js';
import { createTestContext, type TestContextOptions } from './context.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

export async function run(
  argv: string[],
  options: TestContextOptions & { abortWhen?: () => boolean } = {},
): Promise<RunResult> {
  const captured = createTestContext(options);
  // Ctrl-C, the way src/context.ts delivers it: the signal aborts once the condition holds.
  const { abortWhen } = options;
  const timer = abortWhen
    ? setInterval(() => {
        if (abortWhen()) captured.abort();
      }, 10)
    : undefined;
  const code = await runCli(captured.ctx, argv);
  clearInterval(timer);
  return { code, stdout: captured.stdout(), stderr: captured.stderr(), sleeps: captured.sleeps };
}

export async function parse(argv: string[], options: TestContextOptions = {}): Promise<{ verb: string; options: any }> {
  const captured = createTestContext(options);
  return parseCli(captured.ctx, argv);
}
