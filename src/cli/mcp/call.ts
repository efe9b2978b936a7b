// One tool call: its files confined to the server's folder, the guard's preview and one-time token where the tool is
// guarded, then the run of its command, at once or, for a long job, as a handle that job_status follows. Every call of
// a tool that may change something is audited; the log failing never changes the answer.
import { statSync } from 'node:fs';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
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
import { confinedArgs, pathNames, type Confinement } from './paths.js';
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
  waits: JobWaits;
}

const result = (structured: Record<string, unknown>, isError = false): CallToolResult => ({
  ...(isError ? { isError } : {}),
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

/** A call refused before anything was done: exit 2 with why, as the CLI says a mistake in its input. */
export const refusal = (why: string): CallToolResult => result({ exitCode: 2, error: `error: ${why}` }, true);

const isSandbox = (settings: Pick<CallSettings, 'globals'>): boolean => settings.globals.includes('--sandbox');

/** The job's handle as an answer: its id and state, and its outcome once it has ended, else its last progress line.
 * Small: the command once, when it starts; its arguments never. */
export function jobAnswer(
  job: JobView & { answer?: unknown },
  settings: Pick<CallSettings, 'globals'>,
  first = false,
): CallToolResult {
  const { id, state, phase, command, journal, notes } = job;
  const outcome = (job.answer as Answer | undefined)?.result.structuredContent;
  return result({
    job: {
      id,
      state,
      ...(phase && !outcome ? { phase } : {}),
      ...(first ? { command } : {}),
      // A rehearsal says so in every answer about it.
      ...(isSandbox(settings) ? { sandbox: true } : {}),
      ...(journal ? { journal } : {}),
      ...(notes.length ? { notes } : {}),
    },
    // A job that has ended answers with its outcome too: no further call is needed.
    ...(outcome ? { outcome } : { next: 'job_status, with waitSeconds to wait for its outcome' }),
  });
}

/** What makes two jobs the same work: the tool and the files it reads (an import's journal is its input's), else the
 * tool and its arguments. */
function jobKey(tool: Tool, args: Record<string, unknown>): string {
  const files = pathNames(tool.verb)
    .map((name) => args[name])
    .filter((value) => value !== undefined);
  const { resume: _resume, restart: _restart, ...rest } = args;
  return `${tool.name}\n${JSON.stringify(files.length ? files : rest)}`;
}

/** What the files a call names are now: a token does not act on a file changed since its preview. */
function filesNow(tool: Tool, args: Record<string, unknown>): string {
  return pathNames(tool.verb)
    .flatMap((name) => [args[name]].flat())
    .filter((value): value is string => typeof value === 'string')
    .map((path) => {
      const stat = statSync(path, { throwIfNoEntry: false });
      return stat ? `${path}:${stat.size}:${stat.mtimeMs}` : `${path}:none`;
    })
    .join('\n');
}

/** How long a job tool's call waits before its answer is a job to follow: for a rehearsal (--dry-run) to end, and
 * for any job to set itself up (keep its journal, report progress). */
export interface JobWaits {
  rehearsalMs: number;
  setupMs: number;
}

export const defaultJobWaits: JobWaits = { rehearsalMs: 30_000, setupMs: 10_000 };

/** One call's pieces: its audit, the run of its command, and acting (at once, or as a job). */
class Call {
  constructor(
    private readonly settings: CallSettings,
    private readonly tool: Tool,
    /** The arguments as the agent gave them: what the audit log keeps. */
    private readonly given: Record<string, unknown>,
    /** The arguments with their files confined: what runs. */
    readonly args: Record<string, unknown>,
    private readonly signal: AbortSignal,
  ) {}

  audit(entry: Omit<AuditEntry, 'time' | 'tool' | 'arguments'>): void {
    if (readsOnly(this.tool.verb)) return;
    const { ctx } = this.settings;
    const time = new Date(ctx.clock.now()).toISOString();
    const failed = appendAudit(ctx.configDir, { time, tool: this.tool.name, arguments: this.given, ...entry });
    if (failed) ctx.stderr.write(`warning: the audit log could not be written: ${failed}\n`);
  }

  private audited(answer: Answer): Answer {
    if (!answer.isError) this.audit({ outcome: 'done', exitCode: Number(answer.structured.exitCode ?? 0) });
    else this.audit({ outcome: answer.failure.exitCode === 130 ? 'interrupted' : 'failed', ...answer.failure });
    return answer;
  }

  /** Runs the command with --json (and `extra` flags); `fields`, and `limit` where the command has none, shape the
   * answer: the command never sees them. */
  async run(extra: string[], signal = this.signal, observe?: (event: JobEvent) => void): Promise<Answer> {
    const { ctx, groups, globals, files } = this.settings;
    const { tool, args } = this;
    const shape: Shape = {
      fields: Array.isArray(args.fields) ? args.fields.map(String) : undefined,
      limit: !('limit' in (tool.verb.flags ?? {})) && typeof args.limit === 'number' ? args.limit : undefined,
    };
    const argv = [...globals, '--json', ...argvOf(tool, args, extra)];
    return answerOf(await invoke(ctx, groups, argv, signal, observe, files.root), ctx.configDir, tool.name, shape);
  }

  async act(extra: string[]): Promise<CallToolResult> {
    const { tool, settings } = this;
    if (!('job' in tool.verb.agent)) return this.audited(await this.run(extra)).result;
    const { confirm: _token, ...rest } = this.args;
    const command = cut(`outreach ${argvOf(tool, rest).join(' ')}`);
    // Jobs of this server share its process, so a journal's lock does not keep two of them apart: the registry does.
    const job = settings.jobs.start(tool.name, jobKey(tool, rest), command, rest, async (stop, observe) =>
      this.audited(await this.run(extra, stop, observe)),
    );
    if ('refused' in job) {
      this.audit({ outcome: 'refused', error: job.refused });
      return refusal(job.refused);
    }
    // A rehearsal sends nothing: its outcome is what the agent asked for, so it is waited for (a while: a huge file's
    // stays a job to follow). Otherwise at once, but with where it keeps its journal: what job_resume continues from.
    const { rehearsalMs, setupMs } = settings.waits;
    if (rest.dryRun === true) await settings.jobs.follow(job.id, rehearsalMs, this.signal, () => undefined);
    return jobAnswer((await settings.jobs.settled(job.id, setupMs, this.signal)) ?? job, settings, true);
  }
}

/** Asks the client's user (elicitation) where the client can: their answer, or the question to return (an
 * input_required result, on the 2026-07-28 protocol). See ask-user.ts. */
export type AskUser = (question: string) => Promise<'yes' | 'declined' | InputRequiredResult>;

export async function callTool(
  settings: CallSettings,
  tool: Tool,
  given: Record<string, unknown>,
  signal: AbortSignal,
  ask?: AskUser,
): Promise<CallToolResult | InputRequiredResult> {
  const confined = confinedArgs(tool.verb, given, settings.files);
  if ('refused' in confined) return refusal(confined.refused);
  const call = new Call(settings, tool, given, confined.args, signal);
  const { args } = call;
  const guarded = tool.guarded?.(args) === true;
  // A rehearsal changes nothing: it needs no token, and touches nothing to count.
  if (args.dryRun === true || readsOnly(tool.verb) || (!guarded && settings.maxAffected === undefined))
    return call.act([]);
  return previewFirst(settings, tool, call, guarded, ask);
}

/** The preview: the verb's own rehearsal where it has one (and may for these arguments), else the command it would
 * run; then --max-affected, then the token: a guarded call acts only with the token of this very preview. */
async function previewFirst(
  settings: CallSettings,
  tool: Tool,
  call: Call,
  guarded: boolean,
  ask: AskUser | undefined,
): Promise<CallToolResult | InputRequiredResult> {
  const { args } = call;
  let preview = 'dryRun' in (tool.verb.flags ?? {}) ? await call.run(['--dry-run']) : undefined;
  if (preview?.isError && preview.failure.exitCode === 2 && preview.failure.error.includes('--dry-run'))
    preview = undefined;
  if (preview?.isError) {
    call.audit({ outcome: 'failed', ...preview.failure });
    return preview.result;
  }
  const touches = affected(tool, args, preview?.structured);
  const limit = settings.maxAffected;
  if (limit !== undefined && touches > limit) {
    const error = `error: this would touch ${touches} records, more than --max-affected ${limit}`;
    call.audit({ outcome: 'refused', error });
    const hint = 'hint: Narrow the selection, or split the work.';
    return result({ exitCode: 2, error: `${error}\n${hint}`, affected: touches }, true);
  }
  if (!guarded) return call.act([]);
  const command = `outreach ${argvOf(tool, args).join(' ')}`;
  const bound = `${preview ? preview.digest : command}\n${filesNow(tool, args)}`;
  const token = typeof args.confirm === 'string' ? args.confirm : undefined;
  const refused = token === undefined ? undefined : settings.guard.redeem(tool.name, args, bound, token, false);
  if (token !== undefined && refused === undefined) {
    // Where the client can ask its user, the user is asked as well: the token alone is the agent's word.
    const question = `An agent asks to run ${tool.name.replace(/_/g, ' ')} on ${touches} record(s). Do it?`;
    const asked = ask ? await ask(question) : 'yes';
    if (asked === 'declined') {
      call.audit({ outcome: 'refused', error: 'the user declined' });
      return refusal('the user declined; nothing was done');
    }
    if (asked !== 'yes') return asked;
    settings.guard.redeem(tool.name, args, bound, token);
    return call.act('yes' in (tool.verb.flags ?? {}) ? ['--yes'] : []);
  }
  const confirmation = settings.guard.mint(tool.name, args, bound);
  call.audit(refused ? { outcome: 'refused', error: refused } : { outcome: 'preview' });
  return result({
    preview: preview ? preview.structured : { command: cut(command) },
    affected: touches,
    ...(refused ? { refused } : {}),
    confirm: confirmation.token,
    expiresAt: confirmation.expiresAt,
    next: 'Nothing was done: to act, call again with the same arguments and this confirm.',
  });
}
