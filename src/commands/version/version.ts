import { arch, platform, versions } from 'node:process';
import { defineVerb } from '../../cli/verb.js';
import { valueResult } from '../../cli/result.js';
import { packageVersion } from '../../cli/version.js';

export default defineVerb({
  agent: { kind: 'read', local: true },
  description:
    'The same version as --version (-V, -v) prints, with the Node.js version and platform; --json for scripts.',
  examples: ['version --json'],
  async run() {
    const value = {
      version: packageVersion(),
      node: versions.node,
      platform: `${platform}-${arch}`,
    };
    return valueResult(value, `outreach ${value.version} (Node.js ${value.node}, ${value.platform})\n`);
  },
});
