// What a verb's run() receives: the Context, the global flags, and the parts built from them (context/): what to say
// and how loudly (voice), the clients for the profile or the sandbox, the job mode, and the command lines to suggest.
import type { Context } from '../context.js';
import type { JobContext } from '../jobs/context.js';
import type { Clients } from './context/clients.js';
import { createClients } from './context/clients.js';
import { commandLines, type CommandLines } from './context/command-lines.js';
import { JobMode } from './context/job-mode.js';
import { nextStepLine } from './next-step-line.js';
import { flagName } from './flags.js';
import { createVoice, type Voice } from './context/voice.js';
import { outputSettings, readGlobal, type GlobalFlags, type OutputSettings } from './globals.js';
import { createProgressRenderer, type ProgressRenderer } from './progress.js';
import { Secrets, unsanitized } from './terminal-text.js';

export interface CommandContext
  extends Context, JobContext, Voice, Omit<Clients, 'inFlight'>, Omit<CommandLines, 'resumeLine'> {
  flags: GlobalFlags;
  output: OutputSettings;
  /** Every command of the CLI, as the entry point handed them over (`outreach mcp` offers them as tools): verb.ts's
   * GroupEntry, typed loosely here because verb.ts imports this file. */
  groups: ReadonlyArray<{ name: string }>;
  /** Prompts are allowed: stdin and stderr are terminals and neither --no-input nor machine output was asked for. */
  interactive: boolean;
  /** Set once a job keeps a journal: printed after any error that ends it, so the user can continue. */
  resumeCommand?: string;
  /** What the job got done before it stopped (JobContext.doneSoFar), printed before the resume command. */
  doneSoFarText?: string;
  /** Runs a job with its progress rendered; the spinner is gone when it returns. */
  job<T>(run: (job: JobContext) => Promise<T>): Promise<T>;
  /** Registers cleanup that runs once the command ends (close connections, persist the sandbox). */
  onDispose(fn: () => Promise<void> | void): void;
  dispose(): Promise<void>;
}

/** `secrets`: the keys runCli's output guard masks (terminal-text.ts); the key this command connects with joins them. */
export function createCommandContext(
  ctx: Context,
  flags: GlobalFlags,
  argv: string[] = [],
  secrets: Secrets = new Secrets(),
  groups: ReadonlyArray<{ name: string }> = [],
): CommandContext {
  const output = outputSettings(flags, ctx.env, ctx.stdoutIsTTY);
  const debugOn = Boolean(flags.debug) || ctx.env.OUTREACH_DEBUG === '1';
  const disposers: Array<() => Promise<void> | void> = [];
  const onDispose = (fn: () => Promise<void> | void) => void disposers.push(fn);
  // The progress renderer and the voice speak through each other: a line goes past the spinner, the spinner's
  // status lines are the voice's.
  const voice = createVoice({
    stderr: ctx.stderr,
    output,
    debugOn,
    redact: (text) => secrets.redact(text),
    progress: () => progress,
  });
  const progress = progressFor(ctx, output, voice);
  const jobMode = new JobMode({
    clock: ctx.clock,
    signal: ctx.signal,
    stopNow: ctx.stopNow,
    rateLimitWaitMs: readGlobal(flags, 'rateLimitWait'),
    requestsInFlight: () => clients.inFlight(),
    note: (message) => voice.note(message),
    words: ctx.interruptWords,
  });
  const clients = createClients({
    ctx,
    flags,
    secrets,
    jobMode,
    voice,
    debugOn,
    activity: (text) => progress.activity(text),
    onDispose,
  });
  const lines = commandLines(argv);

  const cmd: CommandContext = {
    ...ctx,
    ...voice,
    ...lines,
    config: clients.config,
    http: clients.http,
    connect: clients.connect,
    flags,
    output,
    groups,
    interactive: ctx.stdinIsTTY && ctx.stderrIsTTY && flags.input !== false && !output.machine && !ctx.env.CI,
    waitTimeoutMs: readGlobal(flags, 'waitTimeout'),
    rateLimitWaitMs: () => jobMode.rateLimitWaitMs(),
    timeoutGiven: flags.timeout !== undefined,
    emit: (event) => {
      if (event.type !== 'journal') progress.emit(event);
      ctx.observe?.(event);
    },
    job: (run) =>
      jobMode.run(
        () => run(cmd),
        () => progress.stop(),
      ),
    resumable(step) {
      cmd.resumeCommand = step ? nextStepLine(step, lines) : lines.resumeLine();
    },
    doneSoFar(text) {
      cmd.doneSoFarText = text;
    },
    stepWords: (step) => nextStepLine(step, lines),
    optionName: flagName,
    onDispose,
    async dispose() {
      jobMode.end();
      progress.stop();
      while (disposers.length) await disposers.pop()?.();
    },
  };
  return cmd;
}

/** A spinner on a terminal's stderr, unless --quiet or machine output; its lines go out as the voice's. */
function progressFor(ctx: Context, output: OutputSettings, voice: Voice): ProgressRenderer {
  const { quiet } = output;
  return createProgressRenderer(
    // The spinner draws with escape sequences of its own; the text it shows is made visible in progress.ts.
    unsanitized(ctx.stderr),
    ctx.stderrIsTTY && !quiet && !output.machine,
    (ms, signal) => ctx.clock.sleep(ms, signal),
    (text) => voice.info(text),
    (text) => voice.warn(text),
    // voice.note goes past the spinner, which is drawing this line itself.
    (text) => {
      if (!quiet) ctx.stderr.write(`${voice.redact(text)}\n`);
    },
  );
}
