// `outreach mcp` serves the CLI to agents; `outreach mcp audit` shows what they did.
import type { GroupSpec } from '../../cli/verb.js';

export const group: GroupSpec = {
  self: {
    name: 'mcp',
    summary: 'Serve every command to agents as MCP tools over stdio, with previews before anything destructive',
    example: 'mcp --sandbox',
    load: () => import('./serve.js'),
  },
  verbs: [
    {
      name: 'audit',
      summary: 'Show what agents did through `outreach mcp`: each call that may change something, and its outcome',
      example: 'mcp audit --limit 20',
      load: () => import('./audit.js'),
    },
  ],
};
