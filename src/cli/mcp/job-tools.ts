// The tools that follow a long job: job_status (its phase, waiting for it with progress notifications when the client
// gave a progress token), job_results (its outcome: counts and the paths of its files, never rows inline) and
// job_resume (the same tool again with --resume, for a job this server ran or, after a restart, its tool and arguments)
// and job_stop (a job stopped as Ctrl-C stops its command).
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { interruptGraceMs } from '../context/job-mode.js';
import { cut } from './answer.js';
import { callTool, jobAnswer, refusal, type CallSettings } from './call.js';
import { anyAnswer, jobHandle } from './output-schema.js';
import type { Tool } from './tools.js';

const unknownJob = (id: string): CallToolResult =>
  refusal(`no job ${id} in this server; after a restart, job_resume takes the tool and its arguments`);

/** The longest a job_status call waits. */
const maxWaitSeconds = 600;

/** What job_status and job_stop take (a job, and how long to wait for its end) and answer (its state). */
const jobAndWait = z.strictObject({
  id: z.string().describe('the job id a tool returned'),
  waitSeconds: z.number().min(0).max(maxWaitSeconds).optional().describe('wait up to this long for it to end'),
});
const jobState = z.looseObject({ job: jobHandle, outcome: z.unknown().optional(), next: z.string().optional() });

/** How long job_stop waits for the job to end unless told: its grace period, and a little for it to wind up. */
const stopWaitSeconds = interruptGraceMs / 1000 + 10;

export function registerJobTools(server: McpServer, settings: CallSettings, tools: Map<string, Tool>): void {
  registerStatus(server, settings);
  registerResults(server, settings);
  registerResume(server, settings, tools);
  registerStop(server, settings);
}

function registerStatus(server: McpServer, settings: CallSettings): void {
  const { jobs } = settings;
  server.registerTool(
    'job_status',
    {
      description:
        'The state of a job a tool started (running, done, failed), its last progress line (rows read, sent, ' +
        'accepted; rate-limit waits) and notes, and once it has ended its outcome (as job_results gives it). ' +
        'waitSeconds waits for it to end, sending progress notifications when the call carries a progress token.',
      inputSchema: jobAndWait,
      outputSchema: jobState,
      annotations: { title: 'Follow a job', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ id, waitSeconds }, extra) => {
      if (!jobs.get(id)) return unknownJob(id);
      const token = extra.mcpReq._meta?.progressToken;
      await jobs.follow(id, (waitSeconds ?? 0) * 1000, extra.mcpReq.signal, (job) => {
        if (token === undefined) return;
        void extra.mcpReq
          .notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: job.reports, message: job.phase ?? job.state },
          })
          .catch(() => undefined);
      });
      return jobAnswer(jobs.get(id)!, settings);
    },
  );
}

function registerResults(server: McpServer, settings: CallSettings): void {
  const { jobs } = settings;
  server.registerTool(
    'job_results',
    {
      description:
        "A finished job's outcome: its command's JSON summary (counts per outcome, and the paths of its results, " +
        'rejected and failed files), or its error and exit code.',
      inputSchema: z.strictObject({ id: z.string().describe('the job id a tool returned') }),
      outputSchema: anyAnswer,
      annotations: { title: 'Outcome of a job', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => {
      const job = jobs.get(id);
      if (!job) return unknownJob(id);
      if (!job.answer) return jobAnswer(job, settings);
      return job.answer.result;
    },
  );
}

function registerResume(server: McpServer, settings: CallSettings, tools: Map<string, Tool>): void {
  const { jobs } = settings;
  server.registerTool(
    'job_resume',
    {
      description:
        'Continues a job that stopped (an error, the server stopped) from its journal: the same tool with resume. ' +
        'Give the id of a job of this server, or after a restart the tool and the arguments it was started with.',
      inputSchema: z.strictObject({
        id: z.string().optional(),
        tool: z.string().optional(),
        arguments: z.record(z.string(), z.unknown()).optional(),
      }),
      outputSchema: anyAnswer,
      annotations: { title: 'Resume a job', readOnlyHint: false, idempotentHint: true, openWorldHint: true },
    },
    async ({ id, tool: name, arguments: given }, extra) => {
      const known = id === undefined ? undefined : jobs.get(id);
      if (id !== undefined && !known) return unknownJob(id);
      const toolName = known?.tool ?? name;
      const tool = toolName === undefined ? undefined : tools.get(toolName);
      if (!tool || !('resume' in (tool.verb.flags ?? {})))
        return refusal(`${toolName ?? 'no tool given'}: not a job that keeps a journal`);
      // Arguments given again are held to the tool's schema, as a call of the tool is.
      const checked = tool.inputSchema.safeParse({ ...(known?.arguments ?? given ?? {}), resume: true });
      if (!checked.success) return refusal(`arguments of ${tool.name}: ${cut(checked.error.message)}`);
      const { restart: _restart, ...args } = checked.data as Record<string, unknown>;
      return callTool({ ...settings }, tool, args, extra.mcpReq.signal);
    },
  );
}

function registerStop(server: McpServer, settings: CallSettings): void {
  const { jobs } = settings;
  server.registerTool(
    'job_stop',
    {
      description:
        'Stops a running job as Ctrl-C stops its command: nothing new is sent, requests already sent get up to ' +
        `${interruptGraceMs / 1000} s to be answered, and the job keeps its journal (job_resume continues it). ` +
        `Answers once it has ended, or after waitSeconds (default ${stopWaitSeconds}) with it still stopping.`,
      inputSchema: jobAndWait,
      outputSchema: jobState,
      annotations: { title: 'Stop a job', readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ id, waitSeconds }, extra) => {
      if (!jobs.get(id)) return unknownJob(id);
      await jobs.stopOne(id, (waitSeconds ?? stopWaitSeconds) * 1000, extra.mcpReq.signal);
      return jobAnswer(jobs.get(id)!, settings);
    },
  );
}
