import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defineVerb, type GroupEntry } from '../../cli/verb.js';
import { flag, flagName } from '../../cli/flags.js';
import { globalValueFlags } from '../../cli/globals.js';
import type { CommandContext } from '../../cli/command-context.js';
import { UsageError } from '../../errors.js';

/** The global flags of this run that every tool call keeps: where it goes and how patient it is, never the output. */
function passedOn(ctx: CommandContext): string[] {
  const globals: string[] = ctx.flags.sandbox ? ['--sandbox'] : [];
  for (const key of Object.keys(globalValueFlags) as Array<keyof typeof globalValueFlags>) {
    const value = ctx.flags[key];
    if (key !== 'jq' && value !== undefined) globals.push(`${flagName(key)}=${String(value)}`);
  }
  return globals;
}

/** Where tools' files may be: --files-dir, else the folder the server starts in, unless that is / or the home folder
 * (where desktop clients start servers): every file of the user would then be within an agent's reach. */
function filesDir(ctx: CommandContext, given: string | undefined): string {
  if (given !== undefined) return resolve(ctx.cwd, given);
  const home = ctx.env.HOME ?? homedir();
  if (ctx.cwd === '/' || resolve(ctx.cwd) === resolve(home))
    throw new UsageError(
      `outreach mcp started in ${ctx.cwd}: give --files-dir, the folder whose files tools may read and write`,
      'Example: outreach mcp --files-dir ~/outreach-work (a client starts servers in / or your home folder).',
    );
  return ctx.cwd;
}

export default defineVerb({
  agent: { kind: 'leftOut', why: 'it is the server itself' },
  description: [
    'Speaks MCP on stdin and stdout (logs and errors go to stderr) until the client closes stdin. Each tool is a',
    "command (tasks_list is `outreach tasks list`), its input schema made from the command's arguments and flags;",
    "a call runs the command with --json under this run's profile (-p, OUTREACH_PROFILE) or --sandbox, and answers",
    'with its JSON as structured content plus a text copy, at most 64 KB: a larger result is written to',
    '<config>/mcp-results/ and linked. A destructive or paid tool (bulk skip, pause, delete, revoke, a purchase, an',
    'enrichment, a test email, an import with --conflict overwrite or upsert or without the do-not-contact check, a',
    'dnc sync, anything that asks a person first)',
    "acts in two calls: the first returns a preview (the command's --dry-run where it has one) and a confirm token",
    'bound to those arguments and that preview, good for 10 minutes; the second, with the token, acts (asking the',
    "client's user as well where the client can). Every call",
    'that may change something is appended to <config>/audit.ndjson (`outreach mcp audit`). A file a tool names must',
    'lie in --files-dir (the current folder by default), outside the config folder and /proc, /dev, /sys; - (stdin or',
    'stdout) is refused. A long job (an import, an upload, a bulk action, an enrichment) returns a job id at once:',
    'job_status, job_results and job_resume follow it. --max-affected N refuses any call that would touch more than',
    'N records: the selection of its preview, else the ids, values or input lines it is given. --read-only offers only',
    'the tools that change nothing. Not offered: auth login/logout, profiles use/remove, api, completion, sandbox',
    'start, webhooks listen (each says why in docs/agents.md).',
    '',
    'Claude Code: claude mcp add outreach -- outreach mcp --files-dir ~/outreach-work (add --sandbox to rehearse)',
    '',
    'Claude Desktop (claude_desktop_config.json): "mcpServers": {"outreach": {"command": "outreach",',
    '"args": ["mcp", "--files-dir", "/path/to/work"]}}',
    '',
    'Cursor (~/.cursor/mcp.json): the same "mcpServers" entry',
    '',
    'VS Code (.vscode/mcp.json): "servers": {"outreach": {"type": "stdio", "command": "outreach", "args": ["mcp", "--files-dir", "."]}}',
  ].join('\n'),
  examples: ['mcp --read-only', '-p staging mcp'],
  flags: {
    readOnly: flag.bool('offer only the tools that change nothing'),
    maxAffected: flag.int('refuse any call that would touch more records than this (counted from its preview)', {
      min: 1,
      value: 'n',
    }),
    filesDir: flag.text('the folder whose files tools may read and write (default: the current one)', {
      value: 'dir',
    }),
  },
  async run(ctx, opts) {
    // stdout is the protocol's: each tool answers with JSON of its own, shaped by its own `fields`.
    if (ctx.output.fields)
      throw new UsageError('--fields does not apply to outreach mcp', 'Each read tool takes `fields` of its own.');
    if (ctx.output.format !== 'table' && ctx.output.format !== 'tsv')
      throw new UsageError(
        `--${ctx.output.format} does not apply: outreach mcp speaks MCP on stdout`,
        'Leave it out: every tool already answers with the JSON of its command.',
      );
    const { serveMcp } = await import('../../cli/mcp/server.js');
    const { packageVersion } = await import('../../cli/version.js');
    await serveMcp(ctx, ctx.groups as GroupEntry[], {
      globals: passedOn(ctx),
      readOnly: opts.readOnly,
      filesDir: filesDir(ctx, opts.filesDir),
      maxAffected: opts.maxAffected,
      version: packageVersion(),
    });
  },
});
