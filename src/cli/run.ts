// Runs one command line: parse, run the verb, map any error to a message and an exit code.
import { CommanderError, type Command } from 'commander';
import type { Context } from '../context.js';
import { unwritableFile } from './unwritable-file.js';
import { createCommandContext, type CommandContext } from './command-context.js';
import {
  Interrupted,
  JournalRefused,
  OutputClosed,
  OutreachError,
  SpoolFailed,
  UsageError,
  WaitTimedOut,
} from '../errors.js';
import { shellLine } from './context/command-lines.js';
import { nextStepLine, nextStepWords } from './next-step-line.js';
import { ExitCode, exitCodeFor } from './exit-codes.js';
import type { GlobalFlags } from './globals.js';
import { buildProgram } from './program.js';
import { journalRefusalWords } from './journal-words.js';
// Static: it shares the command definitions with the start-up path, and a dynamic import would split them into
// chunks of their own (two more files to read on every start).
import { complete } from './complete.js';
import { compileJq, filterJq, JsonCapture } from './jq.js';
import { once } from 'node:events';
import type { AnyVerb, GroupEntry, VerbInvoker } from './verb.js';
import { guardContext, Secrets } from './terminal-text.js';

export async function runCli(processCtx: Context, argv: string[], groups: GroupEntry[]): Promise<number> {
  // Everything printed goes through the guard: the key masked, control characters shown on a terminal.
  const secrets = new Secrets();
  const { ctx, flush } = guardContext(processCtx, secrets);
  try {
    // -v is -V, as many tools have it (commander takes one short flag for the version).
    return await runGuarded(ctx, argv[0] === '-v' ? ['--version', ...argv.slice(1)] : argv, secrets, groups);
  } finally {
    flush();
  }
}

async function runGuarded(ctx: Context, argv: string[], secrets: Secrets, groups: GroupEntry[]): Promise<number> {
  let exitCode: number = ExitCode.ok;
  let cmdCtx: CommandContext | undefined;
  const invoke: VerbInvoker = async (verb: AnyVerb, command: Command, options: unknown) => {
    const flags = command.optsWithGlobals() as GlobalFlags;
    // --jq filters what --json prints, for every command (some decide on the flag itself).
    if (flags.jq !== undefined) {
      if (flags.csv || flags.ndjson)
        throw new UsageError(`--jq filters JSON: it cannot be used with ${flags.csv ? '--csv' : '--ndjson'}`);
      flags.json = true;
    }
    // --jq: the command's JSON is kept and filtered once it is complete; a bad expression stops before anything runs.
    const jq = flags.jq === undefined ? undefined : { run: await compileJq(flags.jq), capture: new JsonCapture() };
    const verbCtx = jq ? { ...ctx, stdout: jq.capture, stdoutIsTTY: false } : ctx;
    cmdCtx = createCommandContext(verbCtx, flags, argv, secrets, groups);
    const outcome = await verb.run(cmdCtx, options as Parameters<AnyVerb['run']>[1]);
    // The renderer loads with the first result: --help and --version never pay for it.
    const code =
      typeof outcome === 'object' ? await (await import('./render/output.js')).renderResult(cmdCtx, outcome) : outcome;
    exitCode = code ?? ExitCode.ok;
    if (jq) {
      // In a worker thread, so that Ctrl-C or SIGTERM stops a runaway filter (exit 130).
      const { output, error } = await filterJq(jq.run, jq.capture.text(), ctx.signal, cmdCtx.debug);
      if (output && !ctx.stdout.write(output)) await once(ctx.stdout, 'drain');
      if (error) throw error;
    }
  };
  // The shell scripts of `outreach completion` ask here; nothing else may print.
  if (argv[0] === '__complete') {
    const candidates = await complete(ctx, argv.slice(1), groups).catch(() => []);
    ctx.stdout.write(candidates.map((c) => `${c}\n`).join(''));
    return ExitCode.ok;
  }
  try {
    const program = await buildProgram(ctx, argv, invoke, groups);
    // No command is a usage mistake, as a group without its verb is: the help on stderr, exit 2.
    if (argv.length === 0) {
      program.outputHelp({ error: true });
      ctx.stderr.write('error: no command given\nhint: Pick one of the commands above; `outreach help` shows this.\n');
      return ExitCode.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    exitCode = reportError(ctx, error, cmdCtx);
  } finally {
    try {
      await cmdCtx?.dispose();
    } catch (error) {
      exitCode = exitCode || reportError(ctx, error, cmdCtx);
    }
  }
  return exitCode;
}

/** Parses a command line into the verb's options without running it (parse tests). */
export async function parseCli(
  ctx: Context,
  argv: string[],
  groups: GroupEntry[],
): Promise<{ verb: string; options: unknown }> {
  let parsed: { verb: string; options: unknown } | undefined;
  const invoke: VerbInvoker = async (_verb, command, options) => {
    parsed = { verb: command.name(), options };
  };
  const program = await buildProgram(ctx, argv, invoke, groups);
  await program.parseAsync(argv, { from: 'user' });
  if (!parsed) throw new Error(`no verb ran for: ${argv.join(' ')}`);
  return parsed;
}

function reportError(ctx: Context, error: unknown, cmdCtx: CommandContext | undefined): number {
  const code = printError(ctx, error, cmdCtx);
  // A job with a journal says how to pick up where it stopped: after a failure, throttling or Ctrl-C (not after bad
  // input, which has to be fixed first, nor when the reader of stdout left).
  const continuable = [ExitCode.failure, ExitCode.auth, ExitCode.rateLimited, ExitCode.interrupted] as number[];
  if (!continuable.includes(code)) return code;
  // What got through is said even without a journal (an import of stdin): the user must know what not to send again.
  if (cmdCtx?.doneSoFarText) ctx.stderr.write(`${cmdCtx.doneSoFarText}\n`);
  if (cmdCtx?.resumeCommand) ctx.stderr.write(`To continue: ${cmdCtx.resumeCommand}\n`);
  return code;
}

/** A job's typed refusal, a spool out of room, and a wait given up on with what to do later, said in the words of the
 * command line. */
function inFlagWords(error: unknown, cmdCtx: CommandContext | undefined): unknown {
  if (error instanceof JournalRefused) return journalRefusalWords(error);
  if (error instanceof SpoolFailed && error.full)
    return new OutreachError(
      error.message,
      'Make room there, point TMPDIR at a folder with space, or lower --concurrency or --chunk-size; then resume.',
    );
  if (error instanceof WaitTimedOut && !error.setting) {
    const { later } = error;
    const line = !later
      ? undefined
      : cmdCtx
        ? nextStepLine(later, cmdCtx)
        : `outreach ${shellLine(nextStepWords(later))}`;
    const hint = error.hint ?? (line && `It goes on at the service. Check later with: ${line}`);
    return new WaitTimedOut(error.what, error.waitedMs, later, hint, '--wait-timeout');
  }
  return error;
}

/** The next step of an error that names none of its own: every non-zero exit says one. */
function hintFor(code: ExitCode): string {
  switch (code) {
    case ExitCode.usage:
      return 'Nothing was changed. Add --help to the command to see what it takes.';
    case ExitCode.auth:
      return 'Check the key with `outreach auth status`, or store one with `outreach auth login`.';
    case ExitCode.rateLimited:
      return 'Wait a few minutes and run it again; --rate-limit-wait sets how long a command waits by itself.';
    default:
      return 'Run it again with --debug to see each request and answer.';
  }
}

function printError(ctx: Context, thrown: unknown, cmdCtx: CommandContext | undefined): number {
  const error = inFlagWords(thrown, cmdCtx);
  const redact = cmdCtx?.redact ?? ((text: string) => text);
  if (error instanceof CommanderError) {
    // commander already printed its message (with a suggestion where it has one).
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0)
      return ExitCode.ok;
    // A group named without its verb showed its help: say what is missing, as commander says for other mistakes.
    if (error.code === 'commander.help') ctx.stderr.write('error: this command needs one of the verbs above\n');
    // Where a command takes its file as an argument (prospects import FILE), a file flag is met with commander's
    // nearest flag name, which has nothing to do with files.
    const fileFlag = error.code === 'commander.unknownOption' && /'--(file|input|from-file|from)'/.test(error.message);
    ctx.stderr.write(
      fileFlag
        ? 'hint: this command has no such flag: a file is its argument where it reads one (prospects import FILE, ' +
            'dnc sync FILE); add --help to see what it takes.\n'
        : 'hint: add --help to the command to see what it takes.\n',
    );
    return ExitCode.usage;
  }
  // Like a Unix tool killed by SIGPIPE: exit 141 and say nothing, the reader asked for no more.
  const closed = error instanceof OutputClosed ? error : ctx.signal.reason;
  if (closed instanceof OutputClosed) return exitCodeFor(closed);
  if (error instanceof Interrupted || (ctx.signal.aborted && !(error instanceof OutreachError))) {
    ctx.stderr.write('interrupted\n');
    const hint = error instanceof Interrupted ? error.hint : undefined;
    if (hint) ctx.stderr.write(`hint: ${hint}\n`);
    return ExitCode.interrupted;
  }
  if (error instanceof OutreachError) {
    // A request refused during the grace period after Ctrl-C still says why; the exit stays "interrupted".
    ctx.stderr.write(`error: ${redact(error.message)}\n`);
    const code = ctx.signal.aborted ? ExitCode.interrupted : exitCodeFor(error);
    ctx.stderr.write(`hint: ${redact(error.hint ?? hintFor(code))}\n`);
    return code;
  }
  const unwritable = unwritableFile(error);
  if (unwritable) {
    ctx.stderr.write(`error: ${redact(unwritable)}\n`);
    ctx.stderr.write(
      'hint: Reports, journals and rejected rows are written beside the input file: run it from a copy in a folder ' +
        'this user can write (with space free).\n',
    );
    return ExitCode.failure;
  }
  const debug = cmdCtx?.flags.debug || ctx.env.OUTREACH_DEBUG === '1';
  const text = error instanceof Error ? (debug ? (error.stack ?? error.message) : error.message) : String(error);
  ctx.stderr.write(`error: ${redact(text)}\n`);
  if (!debug) ctx.stderr.write('hint: run again with --debug for details\n');
  return ExitCode.failure;
}
