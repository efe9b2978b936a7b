import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { defaultBaseUrl, maskKey, profileName } from '../../config/target.js';

interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string;
  key: string;
}

export default defineVerb({
  agent: { kind: 'read', local: true },
  examples: ['profiles list --json'],
  async run(ctx) {
    const config = await ctx.config();
    const current = profileName({}, ctx.env, config);
    const rows: ProfileRow[] = Object.entries(config.profiles()).map(([name, p]) => ({
      name,
      current: name === current,
      baseUrl: p.baseUrl ?? defaultBaseUrl,
      key: p.apiKey ? maskKey(p.apiKey) : '',
    }));
    return listResult(
      rows,
      [
        { header: 'CURRENT', value: (r) => (r.current ? '*' : '') },
        { header: 'NAME', value: (r) => r.name, key: true },
        { header: 'BASE URL', value: (r) => r.baseUrl },
        { header: 'KEY', value: (r) => r.key || '(none)' },
      ],
      { emptyMessage: 'no profiles yet; create one with `outreach auth login`' },
    );
  },
});
