// The checks of `outreach doctor`, each a result with a fix in words: what runs here, what is configured and where
// from, and what the service says about it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { version as nodeVersion } from 'node:process';
import type { CommandContext } from '../../cli/command-context.js';
import { looseModeWarnings, readConfig, type ConfigView } from '../../config/config-file.js';
import {
  baseUrlSource,
  maskKey,
  profileName,
  resolveBaseUrl,
  resolveTarget,
  type Target,
} from '../../config/target.js';
import { ApiError, OutreachError } from '../../errors.js';
import { readGlobal } from '../../cli/globals.js';
import { flagName } from '../../cli/flags.js';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** The oldest Node.js the package's engines field accepts. */
const minimumNode = [20, 18] as const;
/** More than this between our clock and the service's Date header is worth fixing (signatures, "due today"). */
const maxSkewMs = 60_000;

export function nodeCheck(version = nodeVersion): Check {
  const [major = 0, minor = 0] = version.slice(1).split('.').map(Number);
  const ok = major > minimumNode[0] || (major === minimumNode[0] && minor >= minimumNode[1]);
  return {
    name: 'Node.js',
    ok,
    detail: `${version} (needs ${minimumNode.join('.')} or newer)`,
    fix: ok ? undefined : 'Install Node.js 20.18 or newer (nodejs.org, or your version manager).',
  };
}

export function configCheck(ctx: CommandContext): { check: Check; config?: ConfigView } {
  let config: ConfigView;
  try {
    config = readConfig(ctx.configDir);
  } catch (error) {
    const fix = error instanceof OutreachError ? error.hint : undefined;
    return { check: { name: 'Config file', ok: false, detail: (error as Error).message, fix } };
  }
  const loose = looseModeWarnings(ctx.configDir);
  if (loose.length)
    return {
      check: {
        name: 'Config file',
        ok: false,
        detail: loose.map((w) => w.replace(/; run: .*/, '')).join('; '),
        fix: loose.map((w) => w.replace(/^.*; run: /, '')).join(' && '),
      },
      config,
    };
  const exists = Object.keys(config.profiles()).length > 0;
  return {
    check: {
      name: 'Config file',
      ok: true,
      detail: exists ? `${config.path} (private: only you can read it)` : `none yet at ${config.path}`,
    },
    config,
  };
}

function profileSource(ctx: CommandContext, config: ConfigView | undefined): string {
  if (ctx.flags.profile) return '--profile';
  if (ctx.env.OUTREACH_PROFILE) return 'OUTREACH_PROFILE';
  if (config?.currentProfile) return '`outreach profiles use`';
  return 'the default';
}

/** The profile, base URL and key of this run, each with where it was set. */
export function settingsChecks(
  ctx: CommandContext,
  config: ConfigView | undefined,
): { checks: Check[]; target?: Target } {
  const profile = profileName(ctx.flags, ctx.env, config);
  const source = profileSource(ctx, config);
  // A profile asked for by name that is not there fails as every other command fails on it; the key check would
  // only say the same again.
  const named = source === '--profile' || source === 'OUTREACH_PROFILE';
  if (named && !ctx.flags.sandbox && !config?.profile(profile) && !ctx.env.OUTREACH_API_KEY)
    return {
      checks: [
        {
          name: 'Profile',
          ok: false,
          detail: `no profile named "${profile}" (from ${source})`,
          fix: 'List them with `outreach profiles list`, or create it with `outreach auth login --profile NAME`.',
        },
        timeoutsCheck(ctx),
      ],
    };
  const checks: Check[] = [{ name: 'Profile', ok: true, detail: `${profile} (from ${source})` }];
  checks.push(timeoutsCheck(ctx));
  if (ctx.flags.sandbox) {
    checks.push({
      name: 'Base URL',
      ok: true,
      detail: 'the in-process sandbox (from --sandbox): no account, no network',
    });
    return { checks };
  }
  const settings = config?.profile(profile);
  try {
    const baseUrl = resolveBaseUrl(ctx.flags, ctx.env, settings);
    checks.push({
      name: 'Base URL',
      ok: true,
      detail: `${baseUrl} (from ${baseUrlSource(ctx.flags, ctx.env, profile, settings)})`,
    });
  } catch (error) {
    if (!(error instanceof OutreachError)) throw error;
    checks.push({ name: 'Base URL', ok: false, detail: error.message, fix: error.hint });
    return { checks };
  }
  try {
    const target = resolveTarget(ctx.flags, ctx.env, config ?? emptyConfig(ctx.configDir));
    const keySource = target.keySource === 'OUTREACH_API_KEY' ? 'OUTREACH_API_KEY' : `profile "${target.profile}"`;
    checks.push({ name: 'API key', ok: true, detail: `${maskKey(target.apiKey)} (from ${keySource})` });
    return { checks, target };
  } catch (error) {
    if (!(error instanceof OutreachError)) throw error;
    checks.push({ name: 'API key', ok: false, detail: error.message, fix: error.hint });
    return { checks };
  }
}

function timeoutsCheck(ctx: CommandContext): Check {
  const given = (key: 'timeout' | 'connectTimeout') =>
    `${readGlobal(ctx.flags, key) / 1000} s (${ctx.flags[key] === undefined ? 'default' : flagName(key)})`;
  return { name: 'Timeouts', ok: true, detail: `request ${given('timeout')}, connect ${given('connectTimeout')}` };
}

function emptyConfig(dir: string): ConfigView {
  return { path: join(dir, 'config.json'), currentProfile: undefined, profiles: () => ({}), profile: () => undefined };
}

/** One authenticated request: does the service answer, how fast, does it take the key, and how far apart the clocks are. */
export async function serviceChecks(ctx: CommandContext): Promise<Check[]> {
  const http = await ctx.http();
  const host = new URL(http.origin).host;
  const started = ctx.clock.now();
  try {
    const response = await http.send('GET', '/v1/unibox/categories', { replaySafe: true });
    const ms = ctx.clock.now() - started;
    return [
      { name: 'Service', ok: true, detail: `${host} answered in ${ms} ms` },
      { name: 'Key accepted', ok: true, detail: 'an authenticated request succeeded' },
      clockCheck(response.headers.date, ctx.clock.now()),
    ];
  } catch (error) {
    if (error instanceof ApiError && error.failure === 'auth')
      return [
        { name: 'Service', ok: true, detail: `${host} answered in ${ctx.clock.now() - started} ms` },
        { name: 'Key accepted', ok: false, detail: ctx.redact(error.message), fix: error.hint },
      ];
    if (!(error instanceof OutreachError)) throw error;
    return [{ name: 'Service', ok: false, detail: ctx.redact(error.message), fix: error.hint }];
  }
}

function clockCheck(dateHeader: string | string[] | undefined, now: number): Check {
  const served = Date.parse(String(dateHeader ?? ''));
  if (Number.isNaN(served)) return { name: 'Clock', ok: true, detail: 'not checked: the service sent no Date header' };
  const skewMs = now - served;
  // The header counts whole seconds: a second of difference is no skew.
  const seconds = Math.abs(skewMs) < 1_000 ? 0 : Math.round(skewMs / 1000);
  const ok = Math.abs(skewMs) <= maxSkewMs;
  return {
    name: 'Clock',
    ok,
    detail:
      seconds === 0
        ? "in step with the service's"
        : `${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} the service's`,
    fix: ok ? undefined : 'Set the system clock (for example: sudo timedatectl set-ntp true).',
  };
}

/** The --sandbox state's size: it grows with every import and is kept until `outreach sandbox reset`. */
export function sandboxStateCheck(configDir: string): Check {
  const dir = join(configDir, 'sandbox');
  let files = 0;
  let bytes = 0;
  try {
    for (const name of readdirSync(dir)) {
      files++;
      bytes += statSync(join(dir, name)).size;
    }
  } catch {
    return { name: 'Sandbox state', ok: true, detail: 'none (--sandbox has not been used with this config folder)' };
  }
  const size = bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return {
    name: 'Sandbox state',
    ok: true,
    detail: `${size} in ${files} files at ${dir} (outreach sandbox reset restores the seed)`,
  };
}
