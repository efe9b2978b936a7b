import { defineVerb } from '../../cli/verb.js';
import { flag } from '../../cli/flags.js';
import { listResult } from '../../cli/result.js';
import { dateColumn, type Column } from '../../cli/render/columns.js';
import type { AuditEntry } from '../../cli/mcp/audit.js';

const columns: Column<AuditEntry>[] = [
  dateColumn('TIME', (e) => e.time, { key: true }),
  { header: 'TOOL', value: (e) => e.tool, key: true },
  { header: 'OUTCOME', value: (e) => e.outcome },
  { header: 'EXIT', value: (e) => (e.exitCode === undefined ? '' : e.exitCode), drop: 2 },
  { header: 'ARGUMENTS', value: (e) => JSON.stringify(e.arguments), useful: 20 },
  { header: 'ERROR', value: (e) => e.error ?? '', drop: 1 },
];

export default defineVerb({
  agent: { kind: 'read', local: true },
  description: [
    'Reads <config>/audit.ndjson, which `outreach mcp` appends to: the time, the tool, its arguments (values of',
    'secret-looking names masked) and the outcome (preview, done, failed, refused) of every call that may change',
    'something. Newest last; --json prints the entries as they are stored.',
  ].join('\n'),
  examples: ['mcp audit --json', '-p staging mcp audit'],
  flags: {
    limit: flag.int('show the last N entries', { min: 1, default: 50 }),
  },
  async run(ctx, opts) {
    const { readAudit } = await import('../../cli/mcp/audit.js');
    const { entries, unreadable } = readAudit(ctx.configDir);
    if (unreadable) ctx.warn(`${unreadable} line(s) of the audit log are not entries: left out`);
    return listResult(entries.slice(-opts.limit), columns, { emptyMessage: 'no tool calls recorded yet' });
  },
});
