import { flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import { defaultBaseUrl, profileName, resolveBaseUrl } from '../../config/target.js';
import { readKey } from './read-key.js';
import { liveCheck } from './live-check.js';
import { doneResult } from '../../cli/result.js';

export default defineVerb({
  agent: {
    kind: 'leftOut',
    why: 'it asks for the key at a terminal; the server uses the profile or OUTREACH_API_KEY it was started with',
  },
  description:
    'On a terminal the key is asked for with masked input; otherwise pass it on stdin with --with-key.\n' +
    'No flag takes the key itself, so it never shows in shell history or process lists.\n' +
    'The key is stored in the config folder (~/.config/outreach, or OUTREACH_CONFIG_DIR), file mode 0600, with the\n' +
    'base URL it was checked against (--base-url, OUTREACH_BASE_URL or the default): it is sent only there.',
  examples: [
    'auth login --profile staging --base-url https://staging.example.com',
    'auth login --with-key < key.txt',
    'printenv SH_KEY | outreach auth login --with-key -p agency',
  ],
  flags: {
    withKey: flag.bool('read the key from stdin'),
    verify: flag.negatable(
      'check the key against the service before storing it (the default)',
      'store the key without checking it against the service',
      true,
    ),
  },
  async run(ctx, opts) {
    const config = await ctx.config();
    const name = profileName(ctx.flags, ctx.env, config);
    const existing = config.profile(name);
    // The key is checked where every later command would send it (flag > OUTREACH_BASE_URL > profile), and stored
    // with that URL: a stored key is only ever sent to the URL it was stored for (config/target.ts).
    const baseUrl = resolveBaseUrl({ baseUrl: ctx.flags.baseUrl }, ctx.env, existing);
    const apiKey = await readKey(ctx, opts.withKey);
    if (opts.verify) await liveCheck(await ctx.connect(baseUrl, apiKey));
    const { baseUrl: _previous, ...rest } = existing ?? {};
    config.saveProfile(name, { ...rest, ...(baseUrl === defaultBaseUrl ? {} : { baseUrl }), apiKey });
    if (!config.currentProfile) config.useProfile(name);
    return doneResult(
      `Logged in: profile "${name}" (${baseUrl}), key stored in ${config.path}${opts.verify ? '' : ' (not checked)'}.`,
    );
  },
});
