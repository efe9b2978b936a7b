import { defineVerb } from '../../cli/verb.js';
import { recordResult } from '../../cli/result.js';
import { MissingKeyError, OutreachError } from '../../errors.js';
import { ExitCode, exitCodeFor } from '../../cli/exit-codes.js';
import { maskKey, resolveTarget } from '../../config/target.js';
import { liveCheck } from './live-check.js';

interface Status {
  profile: string;
  baseUrl: string;
  key: string;
  keySource: string;
  live: { ok: boolean; message: string };
}

export default defineVerb({
  agent: { kind: 'read' },
  description: 'Exit 0 when the key works, 4 when it is missing or refused, 1 when the service cannot be reached.',
  examples: ['auth status -p staging', 'auth status --json'],
  async run(ctx) {
    // Under --sandbox the key is the sandbox's own: what is checked is that one, not a stored profile's.
    const sandbox = ctx.flags.sandbox ? await ctx.http() : undefined;
    const config = await ctx.config();
    const target = sandbox ? undefined : resolveTarget(ctx.flags, ctx.env, config);
    const status: Status = {
      profile: target?.profile ?? 'sandbox',
      baseUrl: target?.baseUrl ?? sandbox!.origin,
      key: target ? maskKey(target.apiKey) : '(the sandbox key)',
      keySource: !target
        ? 'the sandbox (--sandbox)'
        : target.keySource === 'OUTREACH_API_KEY'
          ? 'environment variable OUTREACH_API_KEY'
          : config.path,
      live: { ok: true, message: 'key accepted' },
    };
    let failure: OutreachError | undefined;
    try {
      await liveCheck(sandbox ?? (await ctx.connect(target!.baseUrl, target!.apiKey)));
    } catch (error) {
      if (!(error instanceof OutreachError) || error instanceof MissingKeyError) throw error;
      failure = error;
      status.live = { ok: false, message: ctx.redact(error.message) };
    }
    const code = failure ? exitCodeFor(failure) : ExitCode.ok;
    return recordResult(
      status,
      [
        { header: 'Profile', value: (s) => s.profile },
        { header: 'Base URL', value: (s) => s.baseUrl },
        { header: 'Key', value: (s) => s.key },
        { header: 'Stored in', value: (s) => s.keySource },
        { header: 'Live check', value: (s) => (s.live.ok ? 'ok: key accepted' : `failed: ${s.live.message}`) },
      ],
      status,
      code,
      failure && {
        failing: `the live check failed: ${status.live.message}`,
        hint:
          code === ExitCode.auth
            ? 'Store a working key with `outreach auth login` (or set OUTREACH_API_KEY).'
            : 'Check the base URL and the network with `outreach doctor`.',
      },
    );
  },
});
