// What a verb's run() receives: the Context, the global flags, and lazily built services (config, HTTP client).
import type { Context } from '../context.js';
import type { HttpClient, HttpConfig } from '../api/http.js';
import type { ConfigFile } from '../config/config-file.js';
import { Interrupted } from '../errors.js';
import type { JobContext } from '../jobs/context.js';
import { globalPrefix, outputSettings, readGlobal, type GlobalFlags, type OutputSettings } from './globals.js';
import { createProgressRenderer } from './progress.js';
import { Secrets, unsanitized } from './terminal-text.js';

export const userAgent = 'outreach-cli/0.1';

export interface CommandContext extends Context, JobContext {
  flags: GlobalFlags;
  output: OutputSettings;
  /** Prompts are allowed: stdin and stderr are terminals and neither --no-input nor machine output was asked for. */
  interactive: boolean;
  config(): Promise<ConfigFile>;
  http(): Promise<HttpClient>;
  /** A client for an explicit base URL and key (auth login checks a key before storing it). */
  connect(
    baseUrl: string,
    apiKey: string,
    baseUrlSource?: string,
    identity?: HttpConfig['identity'],
  ): Promise<HttpClient>;
  /** A status line on stderr, unless --quiet or machine output. */
  info(message: string): void;
  /** A warning on stderr, unless --quiet. */
  warn(message: string): void;
  /** A line on stderr unless --quiet, also under --json (waits, what went wrong): stdout stays machine-readable. */
  note(message: string): void;
  /** A job's one-line outcome on stderr: shown for people, and always (even under --json or --quiet) when the command
   * exits non-zero, so a script's log says what went wrong while stdout holds the JSON. */
  outcome(line: string, failing: boolean): void;
  debug(message: string): void;
  /** Removes the API key from text bound for the terminal, even if a server echoed it. */
  redact(text: string): string;
  /** `outreach <the global flags of this run> <words>`, quoted for a shell: a command to suggest. */
  commandLine(words: string[]): string;
  /** This run's own command line, every flag kept, without the words in `drop` and with `add`: a follow-up. */
  sameCommandLine(drop: string[], add: string[]): string;
  /** Set once a job keeps a journal: printed after any error that ends it, so the user can continue. */
  resumeCommand?: string;
  /** Runs a job with its progress rendered; the spinner is gone when it returns. */
  job<T>(run: (job: JobContext) => Promise<T>): Promise<T>;
  /** Registers cleanup that runs once the command ends (close connections, persist the sandbox). */
  onDispose(fn: () => Promise<void> | void): void;
  dispose(): Promise<void>;
}

/** After a first Ctrl-C in a job, how long requests already sent may take to be answered. */
export const interruptGraceMs = 30_000;

/** A command line as a shell reads it back: words with spaces or quotes are single-quoted. */
export function shellLine(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/** `secrets`: the keys runCli's output guard masks (terminal-text.ts); the key this command connects with joins them. */
// eslint-disable-next-line max-lines-per-function -- over 80 lines: to split into named steps (issue 29)
export function createCommandContext(
  ctx: Context,
  flags: GlobalFlags,
  argv: string[] = [],
  secrets: Secrets = new Secrets(),
): CommandContext {
  const output = outputSettings(flags, ctx.env, ctx.stdoutIsTTY);
  const debugOn = Boolean(flags.debug) || ctx.env.OUTREACH_DEBUG === '1';
  const disposers: Array<() => Promise<void> | void> = [];
  const redact = (text: string) => secrets.redact(text);
  let configPromise: Promise<ConfigFile> | undefined;
  let httpPromise: Promise<HttpClient> | undefined;

  const timeoutMs = readGlobal(flags, 'timeout');
  const connectTimeoutMs = Math.min(timeoutMs, readGlobal(flags, 'connectTimeout'));
  const waitTimeoutMs = readGlobal(flags, 'waitTimeout');
  const maxRetries = readGlobal(flags, 'maxRetries');
  // A person waiting on one request wants an answer soon; a long job is better off waiting out a rate limit.
  const rateLimitWaitGiven = flags.rateLimitWait !== undefined;
  let rateLimitWaitMs = readGlobal(flags, 'rateLimitWait') ?? 30_000;
  let lastRateLimitNotice = -Infinity;
  const noticeRateLimitWait = (waitMs: number, giveUpAt: number) => {
    const now = ctx.clock.now();
    if (now - lastRateLimitNotice < 60_000) return; // concurrent requests in one burst: say it once a minute
    lastRateLimitNotice = now;
    // Not format.ts's clockTime: importing it here adds a module file to every start.
    const until = new Date(giveUpAt).toTimeString().slice(0, 8);
    cmd.note(
      `waiting: the service is rate-limiting (HTTP 429); next try in ${Math.ceil(waitMs / 1000)}s, ` +
        `giving up at ${until} (--rate-limit-wait ${rateLimitWaitMs / 1000})`,
    );
  };

  // A job lets the requests it already sent be answered after a first Ctrl-C (so --resume does not send them again),
  // for up to interruptGraceMs; a second Ctrl-C cuts them at once.
  let jobRunning = false;
  const clients: HttpClient[] = [];
  const grace = new AbortController();
  const commandEnded = new AbortController();
  ctx.signal.addEventListener(
    'abort',
    () => {
      if (!jobRunning || !clients.some((client) => client.inFlight > 0)) return;
      cmd.note(
        `stopping: nothing new is sent; waiting up to ${interruptGraceMs / 1000}s for requests already sent to be ` +
          'answered (Ctrl-C again to stop at once)',
      );
      ctx.clock.sleep(interruptGraceMs, AbortSignal.any([ctx.stopNow, commandEnded.signal])).then(
        () =>
          grace.abort(
            new Interrupted(
              'interrupted',
              `Requests still unanswered after ${interruptGraceMs / 1000}s were cut; --resume sends them again.`,
            ),
          ),
        () => undefined,
      );
    },
    { once: true },
  );
  const requestSignal = () => (jobRunning ? AbortSignal.any([ctx.stopNow, grace.signal]) : ctx.signal);

  const progress = createProgressRenderer(
    // The spinner draws with escape sequences of its own; the text it shows is made visible in progress.ts.
    unsanitized(ctx.stderr),
    ctx.stderrIsTTY && !output.quiet && !output.machine,
    (ms, signal) => ctx.clock.sleep(ms, signal),
    (text) => cmd.info(text),
    (text) => {
      if (!output.quiet) ctx.stderr.write(`warning: ${redact(text)}\n`);
    },
    (text) => {
      if (!output.quiet) ctx.stderr.write(`${redact(text)}\n`);
    },
  );

  const cmd: CommandContext = {
    ...ctx,
    flags,
    output,
    interactive: ctx.stdinIsTTY && ctx.stderrIsTTY && flags.input !== false && !output.machine && !ctx.env.CI,
    waitTimeoutMs,
    timeoutGiven: flags.timeout !== undefined,
    emit: (event) => progress.emit(event),
    async job(run) {
      if (!rateLimitWaitGiven) rateLimitWaitMs = 900_000;
      jobRunning = true;
      try {
        return await run(cmd);
      } finally {
        jobRunning = false;
        progress.stop();
      }
    },
    commandLine: (words) => `outreach ${shellLine([...globalPrefix(argv), ...words])}`,
    sameCommandLine: (drop, add) => `outreach ${shellLine([...argv.filter((word) => !drop.includes(word)), ...add])}`,
    resumable(words) {
      const line = words
        ? [...globalPrefix(argv), ...words]
        : [...argv.filter((word) => word !== '--restart' && word !== '--resume'), '--resume'];
      cmd.resumeCommand = `outreach ${shellLine(line)}`;
    },
    config() {
      configPromise ??= import('../config/config-file.js').then(({ ConfigFile }) => ConfigFile.open(ctx.configDir));
      return configPromise;
    },
    http() {
      httpPromise ??= (async () => {
        if (flags.sandbox) {
          const { startInProcessSandbox } = await import('../sandbox/in-process.js');
          const sandbox = await startInProcessSandbox(ctx);
          disposers.push(() => sandbox.close());
          // A new port and key each run: jobs bind their journals to the state instead.
          const identity = { service: `sandbox ${sandbox.statePath}`, account: 'sandbox' };
          return cmd.connect(sandbox.baseUrl, sandbox.apiKey, '--sandbox', identity);
        }
        const [{ resolveTarget }, { readConfig }] = await Promise.all([
          import('../config/target.js'),
          import('../config/config-file.js'),
        ]);
        const config = readConfig(ctx.configDir);
        for (const warning of config.warnings ?? []) cmd.warn(warning);
        const target = resolveTarget(flags, ctx.env, config);
        return cmd.connect(target.baseUrl, target.apiKey, target.baseUrlSource);
      })();
      return httpPromise;
    },
    async connect(baseUrl, apiKey, baseUrlSource, identity) {
      const { HttpClient } = await import('../api/http.js');
      secrets.add(apiKey);
      const client = new HttpClient({
        baseUrl,
        apiKey,
        timeoutMs,
        connectTimeoutMs,
        baseUrlSource,
        identity,
        // A job draws its own progress; a plain request shows what it waits for once that takes a while.
        activity: (text) => {
          if (!jobRunning) progress.activity(text);
        },
        maxRetries,
        rateLimitWaitMs: () => rateLimitWaitMs,
        onRateLimitWait: noticeRateLimitWait,
        clock: ctx.clock,
        random: ctx.random,
        signal: ctx.signal,
        requestSignal,
        userAgent,
        debug: debugOn ? (line) => cmd.debug(line) : undefined,
      });
      // Disposers run in reverse order: the client closes before a sandbox it talks to.
      disposers.push(() => client.close());
      clients.push(client);
      return client;
    },
    info(message) {
      if (!output.quiet && !output.machine) ctx.stderr.write(`${redact(message)}\n`);
    },
    warn(message) {
      if (!output.quiet) ctx.stderr.write(`warning: ${redact(message)}\n`);
    },
    outcome(line, failing) {
      if (failing || (!output.quiet && !output.machine)) progress.print(() => ctx.stderr.write(`${redact(line)}\n`));
    },
    note(message) {
      if (!output.quiet) progress.print(() => ctx.stderr.write(`${redact(message)}\n`));
    },
    redact,
    debug(message) {
      if (debugOn) ctx.stderr.write(`[debug] ${redact(message)}\n`);
    },
    onDispose(fn) {
      disposers.push(fn);
    },
    async dispose() {
      commandEnded.abort();
      progress.stop();
      while (disposers.length) await disposers.pop()?.();
    },
  };
  return cmd;
}
