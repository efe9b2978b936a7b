// Which service to talk to and with which key: flag > environment > profile.
import { isLoopbackHost } from '../loopback.js';
import { MissingKeyError, UsageError } from '../errors.js';
import type { Env } from '../context.js';
import type { ConfigView } from './config-file.js';

export const defaultBaseUrl = 'https://open-api.saleshandy.com';

export interface TargetFlags {
  profile?: string;
  baseUrl?: string;
}

export interface Target {
  profile: string;
  baseUrl: string;
  apiKey: string;
  keySource: 'OUTREACH_API_KEY' | 'profile' | 'sandbox';
  /** Where the base URL was set, in words: "--base-url", "OUTREACH_BASE_URL", 'profile "work"', "the default". */
  baseUrlSource: string;
}

export function profileName(flags: TargetFlags, env: Env, config?: ConfigView): string {
  return flags.profile || env.OUTREACH_PROFILE || config?.currentProfile || 'default';
}

export { isLoopbackHost };

/** Parses a base URL and refuses plain http except to loopback, where nothing crosses a network. */
export function checkBaseUrl(value: string, where: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${where}: "${value}" is not a URL`, 'Example: https://open-api.saleshandy.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`${where}: only https URLs are supported, not ${url.protocol}`);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new UsageError(
      `${where}: plain http is refused for ${url.hostname}; the API key would cross the network unencrypted`,
      'Use https, or http only to 127.0.0.1 / localhost.',
    );
  }
  if (url.username || url.password) throw new UsageError(`${where}: credentials in the URL are not allowed`);
  // Every path already starts with /v1: a base URL copied with it (https://host/v1) must not give /v1/v1/...
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/i, '');
}

export function baseUrlSource(flags: TargetFlags, env: Env, profileName: string, profile?: { baseUrl?: string }) {
  if (flags.baseUrl) return '--base-url';
  if (env.OUTREACH_BASE_URL) return 'OUTREACH_BASE_URL';
  if (profile?.baseUrl) return `profile "${profileName}"`;
  return 'the default';
}

export function resolveBaseUrl(flags: TargetFlags, env: Env, profile?: { baseUrl?: string }): string {
  if (flags.baseUrl) return checkBaseUrl(flags.baseUrl, '--base-url');
  if (env.OUTREACH_BASE_URL) return checkBaseUrl(env.OUTREACH_BASE_URL, 'OUTREACH_BASE_URL');
  if (profile?.baseUrl) return checkBaseUrl(profile.baseUrl, 'profile base URL');
  return defaultBaseUrl;
}

/** A stored key belongs to the base URL it was stored for (as gh ties a token to its host): never sent elsewhere. */
export class KeyForAnotherUrlError extends MissingKeyError {
  override readonly hint: string;

  constructor(profile: string, home: string, baseUrl: string, source: string, owner?: string) {
    super(profile);
    this.message =
      `the key stored in profile "${profile}" is for ${home}, not ${baseUrl} (from ${source}); ` +
      'it is sent only to its own URL';
    this.hint = owner
      ? `Profile "${owner}" has a key for ${baseUrl}: add --profile ${owner}.`
      : `For ${baseUrl}, set OUTREACH_API_KEY, or store a key for it: ` +
        `outreach auth login --profile NAME --base-url ${baseUrl} (then add --profile NAME).`;
  }
}

/** The base URL a profile's stored key was stored for. */
export function profileBaseUrl(profile: { baseUrl?: string }): string {
  return profile.baseUrl ? checkBaseUrl(profile.baseUrl, 'profile base URL') : defaultBaseUrl;
}

/** Another profile whose stored key is for this base URL, if any. */
function profileFor(config: ConfigView, baseUrl: string): string | undefined {
  return Object.entries(config.profiles()).find(([, p]) => {
    try {
      return Boolean(p.apiKey) && profileBaseUrl(p) === baseUrl;
    } catch {
      return false;
    }
  })?.[0];
}

export function resolveTarget(flags: TargetFlags, env: Env, config: ConfigView): Target {
  const name = profileName(flags, env, config);
  const profile = config.profile(name);
  // A profile asked for by name, by the flag or the environment alike, must exist (exit 2, as any unknown name).
  const asked = flags.profile ? '' : env.OUTREACH_PROFILE ? ' (OUTREACH_PROFILE)' : undefined;
  if (asked !== undefined && !profile && !env.OUTREACH_API_KEY) {
    throw new UsageError(
      `no profile named "${name}"${asked}`,
      'List them with `outreach profiles list`, or create it with `outreach auth login --profile NAME`.',
    );
  }
  const baseUrl = resolveBaseUrl(flags, env, profile);
  const where = { profile: name, baseUrl, baseUrlSource: baseUrlSource(flags, env, name, profile) };
  if (env.OUTREACH_API_KEY) return { ...where, apiKey: env.OUTREACH_API_KEY, keySource: 'OUTREACH_API_KEY' };
  if (profile?.apiKey) {
    const home = profileBaseUrl(profile);
    if (home !== baseUrl)
      throw new KeyForAnotherUrlError(name, home, baseUrl, where.baseUrlSource, profileFor(config, baseUrl));
    return { ...where, apiKey: profile.apiKey, keySource: 'profile' };
  }
  throw new MissingKeyError(name);
}

/** Shows enough of a key to recognise it, never enough to use it. */
export function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return `${key.slice(0, 4)}${'*'.repeat(Math.min(12, key.length - 8))}${key.slice(-4)}`;
}
