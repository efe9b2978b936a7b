// One tool call is one run of the CLI, in this process: the same parsing, checks, guards, exit codes and JSON a
// person's command gets, with --json forced and the output captured. Nothing of it reaches the server's stdout, which
// carries only protocol messages; the key is read from the profile or environment inside the run, never passed in.
import { Readable, Writable } from 'node:stream';
import type { Context } from '../../context.js';
import type { JobEvent } from '../../jobs/events.js';
import { runCli } from '../run.js';
import type { GroupEntry } from '../verb.js';

export interface Invocation {
  code: number;
  stdout: string;
  stderr: string;
  /** The output went past what a run keeps: its JSON is not whole. */
  cut: boolean;
}

/** What a run may print before it is cut off (16 MiB a stream): a larger result is refused, not cut silently. */
const maxCapturedChars = 16 * 1024 * 1024;

class Capture extends Writable {
  text = '';
  cut = false;
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    if (this.text.length + chunk.length <= maxCapturedChars) this.text += chunk.toString('utf8');
    else this.cut = true;
    callback();
  }
}

/** A prompt in a tool call is a bug (runs are never interactive): it fails loudly instead of waiting forever. */
const noPrompts: Context['prompter'] = new Proxy({} as Context['prompter'], {
  get: () => () => Promise.reject(new Error('an outreach tool call cannot ask questions')),
});

export async function invoke(
  base: Context,
  groups: GroupEntry[],
  argv: string[],
  signal: AbortSignal,
  observe?: (event: JobEvent) => void,
  cwd = base.cwd,
): Promise<Invocation> {
  const stdout = new Capture();
  const stderr = new Capture();
  const ctx: Context = {
    ...base,
    stdin: Readable.from([]),
    stdout,
    stderr,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    prompter: noPrompts,
    observe,
    // Journals and reports a command writes beside its work go to the folder the server's files are confined to.
    cwd,
    // The client's cancel is a Ctrl-C: nothing new starts, a job keeps its journal for job_resume.
    signal: AbortSignal.any([base.signal, signal]),
    interruptWords: { resume: 'job_resume' },
    dispose: () => undefined,
  };
  const code = await runCli(ctx, argv, groups);
  return { code, stdout: stdout.text, stderr: stderr.text, cut: stdout.cut };
}
