// One tool call: its files confined to the server's folder, the guard's preview and one-time token where the tool is
// guarded, then the run of its command, at once or, for a long job, as a handle that job_status follows. Every call of
// a tool that may change something is audited; the log failing never changes the answer.
import { statSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Context } from '../../context.js';
import type { JobEvent } from '../../jobs/events.js';
import type { GroupEntry } from '../verb.js';
import { affected } from './affected.js';
import { answerOf, cut, type Answer, type Shape } from './answer.js';
import { argvOf } from './argv.js';
import { appendAudit, type AuditEntry } from './audit.js';
import type { Guard } from './guard.js';
import { invoke } from './invoke.js';
import type { Jobs, JobView } from './jobs.js';
import { confinedArgs, isPathArg, isPathFlag, type Confinement } from './paths.js';
import { toolArgs, toolFlags } from './tool-schema.js';
import { readsOnly, type Tool } from './tools.js';

export interface CallSettings {
  ctx: Context;
  groups: GroupEntry[];
  /** The global flags every call runs with (--sandbox, -p NAME ...). */
  globals: string[];
  /** Where the files a call names must lie. */
  files: Confinement;
  /** --max-affected: no call acts on more records than this. */
  maxAffected?: number;
  guard: Guard;
  jobs: Jobs;
}

const result = (structured: Record<string, unknown>, isError = false): CallToolResult => ({
  ...(isError ? { isError } : {}),
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

export const isSandbox = (settings: Pick<CallSettings, 'globals'>): boolean => settings.globals.includes('--sandbox');

/** The job's handle as an answer: its id and state, and its outcome once it has ended, else its last progress line.
 * Small: the command (and whether it runs against the sandbox) once, when it starts; its arguments never. */
export function jobAnswer(
  job: JobView & { answer?: unknown },
  settings: Pick<CallSettings, 'globals'>,
  first = false,
): CallToolResult {
  const { id, state, phase, command, notes } = job;
  const outcome = (job.answer as Answer | undefined)?.result.structuredContent;
  return result({
    job: {
      id,
      state,
      ...(phase && !outcome ? { phase } : {}),
      ...(first ? { command, ...(isSandbox(settings) ? { sandbox: true } : {}) } : {}),
      ...(notes.length ? { notes } : {}),
    },
    // A job that has ended answers with its outcome too: no further call is needed.
    ...(outcome ? { outcome } : { next: 'job_status, with waitSeconds to wait for its outcome' }),
  });
}

/** What the files a call names are now: a token does not act on a file changed since its preview. */
function filesNow(tool: Tool, args: Record<string, unknown>): string {
  const names = [
    ...toolFlags(tool.verb)
      .filter(([, spec]) => isPathFlag(spec))
      .map(([key]) => key),
    ...toolArgs(tool.verb)
      .filter(isPathArg)
      .map((spec) => spec.name),
  ];
  return names
    .flatMap((name) => [args[name]].flat())
    .filter((value): value is string => typeof value === 'string')
    .map((path) => {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat ? `${path}:${stat.size}:${stat.mtimeMs}` : `${path}:none`;
    })
    .join('\n');
}

export async function callTool(
  settings: CallSettings,
  tool: Tool,
  given: Record<string, unknown>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  const { ctx, groups, globals, guard } = settings;
  const confined = confinedArgs(tool.verb, given, settings.files);
  if ('refused' in confined) return result({ exitCode: 2, error: `error: ${confined.refused}` }, true);
  const args = confined.args;
  const audit = (entry: Omit<AuditEntry, 'time' | 'tool' | 'arguments'>) => {
    if (readsOnly(tool.verb)) return;
    const time = new Date(ctx.clock.now()).toISOString();
    const failed = appendAudit(ctx.configDir, { time, tool: tool.name, arguments: given, ...entry });
    if (failed) ctx.stderr.write(`warning: the audit log could not be written: ${failed}\n`);
  };
  const audited = (answer: Answer): Answer => {
    if (!answer.isError) audit({ outcome: 'done', exitCode: Number(answer.structured.exitCode ?? 0) });
    else audit({ outcome: answer.failure.exitCode === 130 ? 'interrupted' : 'failed', ...answer.failure });
    return answer;
  };
  // `fields`, and `limit` where the command has none, shape the answer; the command never sees them.
  const ownLimit = 'limit' in (tool.verb.flags ?? {});
  const shape: Shape = {
    fields: Array.isArray(args.fields) ? args.fields.map(String) : undefined,
    limit: !ownLimit && typeof args.limit === 'number' ? args.limit : undefined,
  };
  const run = async (extra: string[], runSignal: AbortSignal, observe?: (event: JobEvent) => void) =>
    answerOf(
      await invoke(ctx, groups, [...globals, '--json', ...argvOf(tool, args, extra)], runSignal, observe),
      ctx.configDir,
      tool.name,
      shape,
    );
  const act = async (extra: string[]): Promise<CallToolResult> => {
    if (!('job' in tool.verb.agent)) return audited(await run(extra, signal)).result;
    const { confirm: _token, ...rest } = args;
    const command = cut(`outreach ${argvOf(tool, rest).join(' ')}`);
    const job = settings.jobs.start(tool.name, rest, command, async (stop, observe) =>
      audited(await run(extra, stop, observe)),
    );
    return jobAnswer(job, settings, true);
  };
  const guarded = tool.guarded?.(args) === true;
  // A rehearsal changes nothing: it needs no token, and touches nothing to count.
  const limit = settings.maxAffected;
  if (args.dryRun === true || readsOnly(tool.verb) || (!guarded && limit === undefined)) return act([]);

  // The preview: the verb's own rehearsal where it has one (and may for these arguments), else the command it would run.
  let preview = 'dryRun' in (tool.verb.flags ?? {}) ? await run(['--dry-run'], signal) : undefined;
  if (preview?.isError && preview.failure.exitCode === 2 && preview.failure.error.includes('--dry-run'))
    preview = undefined;
  if (preview?.isError) {
    audit({ outcome: 'failed', ...preview.failure });
    return preview.result;
  }
  const touches = affected(tool, args, preview?.structured);
  if (limit !== undefined && touches > limit) {
    const error = `error: this would touch ${touches} records, more than --max-affected ${limit}`;
    audit({ outcome: 'refused', error });
    return result(
      { exitCode: 2, error: `${error}\nhint: Narrow the selection, or split the work.`, affected: touches },
      true,
    );
  }
  if (!guarded) return act([]);
  const command = `outreach ${argvOf(tool, args).join(' ')}`;
  const bound = `${preview ? preview.text : command}\n${filesNow(tool, args)}`;
  const token = typeof args.confirm === 'string' ? args.confirm : undefined;
  const refused = token === undefined ? undefined : guard.redeem(tool.name, args, bound, token);
  if (token !== undefined && refused === undefined) return act('yes' in (tool.verb.flags ?? {}) ? ['--yes'] : []);
  const confirmation = guard.mint(tool.name, args, bound);
  audit(refused ? { outcome: 'refused', error: refused } : { outcome: 'preview' });
  return result({
    preview: preview ? preview.structured : { command: cut(command) },
    affected: touches,
    ...(refused ? { refused } : {}),
    confirm: confirmation.token,
    expiresAt: confirmation.expiresAt,
    next: 'Nothing was done: to act, call again with the same arguments and this confirm.',
  });
}
