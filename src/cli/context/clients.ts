// The clients a command talks through, made on first use: the config file, and one HTTP client for the profile (or
// the environment) or for an in-process sandbox under --sandbox. Each client's key joins the keys masked in output.
import type { HttpClient, HttpConfig } from '../../api/http.js';
import type { ConfigFile } from '../../config/config-file.js';
import type { Context } from '../../context.js';
import { readGlobal, type GlobalFlags } from '../globals.js';
import type { Secrets } from '../terminal-text.js';
import type { JobMode } from './job-mode.js';
import type { Voice } from './voice.js';

export const userAgent = 'outreach-cli/0.1';

export interface Clients {
  config(): Promise<ConfigFile>;
  http(): Promise<HttpClient>;
  /** A client for an explicit base URL and key (auth login checks a key before storing it). */
  connect(
    baseUrl: string,
    apiKey: string,
    baseUrlSource?: string,
    identity?: HttpConfig['identity'],
  ): Promise<HttpClient>;
  /** Whether any request of this command is still unanswered. */
  inFlight(): boolean;
}

export interface ClientSettings {
  ctx: Context;
  flags: GlobalFlags;
  secrets: Secrets;
  jobMode: JobMode;
  voice: Pick<Voice, 'warn' | 'debug'>;
  debugOn: boolean;
  /** What a plain request waits for, shown once that takes a while (a job draws its own progress instead). */
  activity(text: string | undefined): void;
  /** Cleanup for the end of the command; it runs in reverse order, so a client closes before a sandbox it talks to. */
  onDispose(fn: () => Promise<void> | void): void;
}

export function createClients(settings: ClientSettings): Clients {
  const { ctx, flags } = settings;
  const made: HttpClient[] = [];
  let configPromise: Promise<ConfigFile> | undefined;
  let httpPromise: Promise<HttpClient> | undefined;

  const clients: Clients = {
    config() {
      configPromise ??= import('../../config/config-file.js').then(({ ConfigFile }) => ConfigFile.open(ctx.configDir));
      return configPromise;
    },
    http() {
      httpPromise ??= flags.sandbox ? sandboxClient() : profileClient();
      return httpPromise;
    },
    async connect(baseUrl, apiKey, baseUrlSource, identity) {
      const client = await newClient(settings, { baseUrl, apiKey, baseUrlSource, identity });
      settings.onDispose(() => client.close());
      made.push(client);
      return client;
    },
    inFlight: () => made.some((client) => client.inFlight > 0),
  };

  async function sandboxClient(): Promise<HttpClient> {
    // Two services named at once: which one a command would change must not be a guess.
    if (flags.baseUrl !== undefined || flags.profile !== undefined) {
      const { UsageError } = await import('../../errors.js');
      const other = flags.baseUrl !== undefined ? '--base-url' : '--profile';
      throw new UsageError(
        `--sandbox and ${other} name two services`,
        'Give one: --sandbox runs an in-process sandbox of its own; a running `outreach sandbox start` is reached with --base-url.',
      );
    }
    if (ctx.env.OUTREACH_BASE_URL)
      settings.voice.warn('--sandbox: OUTREACH_BASE_URL is set and not used (the in-process sandbox answers instead)');
    const { startInProcessSandbox } = await import('../../sandbox/in-process.js');
    const sandbox = await startInProcessSandbox(ctx);
    settings.onDispose(() => sandbox.close());
    // A new port and key each run: jobs bind their journals to the state instead.
    const identity = { service: `sandbox ${sandbox.statePath}`, account: 'sandbox' };
    return clients.connect(sandbox.baseUrl, sandbox.apiKey, '--sandbox', identity);
  }

  async function profileClient(): Promise<HttpClient> {
    const [{ resolveTarget }, { readConfig }] = await Promise.all([
      import('../../config/target.js'),
      import('../../config/config-file.js'),
    ]);
    const config = readConfig(ctx.configDir);
    for (const warning of config.warnings ?? []) settings.voice.warn(warning);
    const target = resolveTarget(flags, ctx.env, config);
    return clients.connect(target.baseUrl, target.apiKey, target.baseUrlSource);
  }

  return clients;
}

type Endpoint = Pick<HttpConfig, 'baseUrl' | 'apiKey' | 'baseUrlSource' | 'identity'>;

async function newClient(settings: ClientSettings, endpoint: Endpoint): Promise<HttpClient> {
  const { ctx, flags, jobMode } = settings;
  const { HttpClient } = await import('../../api/http.js');
  settings.secrets.add(endpoint.apiKey);
  const timeoutMs = readGlobal(flags, 'timeout');
  return new HttpClient({
    ...endpoint,
    timeoutMs,
    connectTimeoutMs: Math.min(timeoutMs, readGlobal(flags, 'connectTimeout')),
    activity: (text) => {
      if (!jobMode.isRunning) settings.activity(text);
    },
    maxRetries: readGlobal(flags, 'maxRetries'),
    rateLimitWaitMs: () => jobMode.rateLimitWaitMs(),
    onRateLimitWait: (waitMs, giveUpAt) => jobMode.noticeRateLimitWait(waitMs, giveUpAt),
    clock: ctx.clock,
    random: ctx.random,
    signal: ctx.signal,
    requestSignals: () => jobMode.requestSignals(),
    userAgent,
    debug: settings.debugOn ? (line) => settings.voice.debug(line) : undefined,
  });
}
