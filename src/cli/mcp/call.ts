// One tool call: the guard's preview and token where the tool is guarded, then the run of its command, at once or, for
// a long job, as a handle that job_status follows; every call of a tool that may change something is audited.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Context } from '../../context.js';
import type { JobEvent } from '../../jobs/events.js';
import type { GroupEntry } from '../verb.js';
import { answerOf, failureOf, type Answer } from './answer.js';
import { argvOf } from './argv.js';
import { appendAudit, type AuditEntry } from './audit.js';
import type { Guard } from './guard.js';
import { invoke } from './invoke.js';
import type { Jobs, JobView } from './jobs.js';
import { readsOnly, type Tool } from './tools.js';

export interface CallSettings {
  ctx: Context;
  groups: GroupEntry[];
  /** The global flags every call runs with (--sandbox, -p NAME ...). */
  globals: string[];
  guard: Guard;
  jobs: Jobs;
}

const result = (structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

export const isSandbox = (settings: Pick<CallSettings, 'globals'>): boolean => settings.globals.includes('--sandbox');

/** The job's handle as an answer: what it is, and what to call next. */
export function jobAnswer(
  job: JobView & { answer?: unknown },
  settings: Pick<CallSettings, 'globals'>,
): CallToolResult {
  const { answer: _answer, ...shown } = job;
  return result({
    job: { ...shown, sandbox: isSandbox(settings) },
    next:
      job.state === 'running'
        ? `Follow it with job_status {"id": "${job.id}"} (add "waitSeconds" to wait for it); job_results gives its outcome.`
        : `job_results {"id": "${job.id}"} gives its outcome.`,
  });
}

export async function callTool(
  settings: CallSettings,
  tool: Tool,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const { ctx, groups, globals, guard } = settings;
  const audit = (entry: Omit<AuditEntry, 'time' | 'tool' | 'arguments'>) => {
    if (!readsOnly(tool.verb))
      appendAudit(ctx.configDir, {
        time: new Date(ctx.clock.now()).toISOString(),
        tool: tool.name,
        arguments: args,
        ...entry,
      });
  };
  const audited = (answer: Answer): Answer => {
    audit(answer.isError ? { outcome: 'failed', ...answer.failure } : { outcome: 'done', exitCode: 0 });
    return answer;
  };
  const run = async (extra: string[], runSignal: AbortSignal, observe?: (event: JobEvent) => void) => {
    const outcome = await invoke(ctx, groups, [...globals, '--json', ...argvOf(tool, args, extra)], runSignal, observe);
    return outcome.code === 0 ? answerOf(outcome, ctx.configDir, tool.name) : failureOf(outcome);
  };
  const act = async (extra: string[]): Promise<CallToolResult> => {
    if (!('job' in tool.verb.agent)) return audited(await run(extra, signal)).result;
    const { confirm: _token, ...rest } = args;
    const command = `outreach ${argvOf(tool, rest).join(' ')}`;
    const job = settings.jobs.start(tool.name, rest, command, async (stop, observe) =>
      audited(await run(extra, stop, observe)),
    );
    return jobAnswer(job, settings);
  };
  if (!tool.guarded?.(args)) return act([]);

  // The preview: the verb's own rehearsal where it has one, else the command it would run.
  const preview = 'dryRun' in (tool.verb.flags ?? {}) ? await run(['--dry-run'], signal) : undefined;
  if (preview?.isError) {
    audit({ outcome: 'failed', ...preview.failure });
    return preview.result;
  }
  const shown = preview ? preview.text : `outreach ${argvOf(tool, args).join(' ')}`;
  const token = typeof args.confirm === 'string' ? args.confirm : undefined;
  const refused = token === undefined ? undefined : guard.refusal(tool.name, args, shown, token);
  if (token !== undefined && refused === undefined) return act('yes' in (tool.verb.flags ?? {}) ? ['--yes'] : []);
  const confirmation = guard.mint(tool.name, args, shown);
  audit(refused ? { outcome: 'refused', error: refused } : { outcome: 'preview' });
  return result({
    preview: preview ? preview.structured : { command: shown },
    ...(refused ? { refused } : {}),
    confirm: confirmation.token,
    expiresAt: confirmation.expiresAt,
    next: `Nothing was done. To do it, call ${tool.name} again with the same arguments and confirm set to the token.`,
  });
}
