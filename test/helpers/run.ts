// Runs the real CLI in-process (runCli) with a test Context: exact stdout, stderr and exit code.
import { runCli, parseCli } from '../../src/cli/run.js';
import { createTestContext, type TestContextOptions } from './context.js';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  sleeps: number[];
}

export async function run(argv: string[], options: TestContextOptions = {}): Promise<RunResult> {
  const captured = createTestContext(options);
  const code = await runCli(captured.ctx, argv);
  return { code, stdout: captured.stdout(), stderr: captured.stderr(), sleeps: captured.sleeps };
}

export async function parse(argv: string[], options: TestContextOptions = {}): Promise<{ verb: string; options: any }> {
  const captured = createTestContext(options);
  return parseCli(captured.ctx, argv);
}
