// A tool's output schema: what its structured content may hold, by what the tool is. Every answer is the command's
// JSON (an object as it is, a list as {items}, cut to a file link past 64 KB, with the warning of exit 3); a guarded
// tool may answer with a preview and its token; a job tool with its handle and, once it has ended, its outcome.
// Failures (isError) carry {exitCode, error} and are not held to it. The service's own fields pass through unchecked.
import { z } from 'zod';
import type { Tool } from './tools.js';

const commandAnswer = {
  items: z.array(z.unknown()).optional(),
  truncated: z.literal(true).optional(),
  file: z.string().optional(),
  count: z.number().optional(),
  first: z.array(z.unknown()).optional(),
  exitCode: z.literal(3).optional(),
  warning: z.string().optional(),
};

const preview = {
  preview: z.unknown().optional(),
  affected: z.number().optional(),
  confirm: z.string().optional(),
  expiresAt: z.string().optional(),
  refused: z.string().optional(),
  next: z.string().optional(),
};

export const jobHandle = z.looseObject({
  id: z.string(),
  state: z.enum(['running', 'done', 'failed']),
  phase: z.string().optional(),
  command: z.string().optional(),
  journal: z.string().optional(),
  sandbox: z.literal(true).optional(),
  notes: z.array(z.string()).optional(),
});

const job = {
  job: jobHandle.optional(),
  outcome: z.unknown().optional(),
  next: z.string().optional(),
};

export function outputSchema(tool: Tool): z.ZodObject {
  return z.looseObject({
    ...commandAnswer,
    ...(tool.guarded ? preview : {}),
    ...('job' in tool.verb.agent ? job : {}),
  });
}

/** What job_results and job_resume may answer: any tool's answer, a job's handle, a guard's preview. */
export const anyAnswer = z.looseObject({ ...commandAnswer, ...preview, ...job });
