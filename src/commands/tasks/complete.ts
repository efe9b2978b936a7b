import { arg, flag } from '../../cli/flags.js';
import { defineVerb } from '../../cli/verb.js';
import type { CommandContext } from '../../cli/command-context.js';
import { UsageError } from '../../errors.js';
import {
  callOutcomes,
  normaliseCallOutcome,
  tasksEndpoints,
  type CallOutcome,
  type Task,
} from '../../api/contract/tasks.js';
import { completeTask } from '../../api/resources/tasks.js';
import { call } from '../../api/call.js';
import { doneResultRead } from '../../cli/result.js';

function askOutcome(ctx: CommandContext): Promise<CallOutcome> {
  return ctx.prompter.select({
    message: 'Call outcome',
    choices: callOutcomes.map((value) => ({ value, name: value })),
  });
}

/** The task as read, with the status and call outcome the complete answer gave (where it gave them). */
function asCompleted(read: Task, done: Awaited<ReturnType<typeof completeTask>>): Task {
  return {
    ...read,
    ...(done.status !== undefined && { status: done.status }),
    ...(done.callOutcome !== undefined && { callOutcome: done.callOutcome }),
  };
}

export default defineVerb({
  agent: { kind: 'write', idempotent: false },
  args: [arg.text('taskId')],
  description:
    `Call outcomes: ${callOutcomes.join(', ')}.\n` +
    'Any case and hyphenated forms are accepted (no-answer); the title-case form of spec.md is what is sent.\n' +
    'On a terminal a call task without --outcome asks for it; elsewhere it is a usage error (exit 2).',
  examples: ['tasks complete tk000001 --outcome left-voicemail', 'tasks complete tk000002'],
  flags: {
    outcome: flag.choice(callOutcomes, 'call outcome (call tasks only)', {
      value: 'outcome',
      normalise: normaliseCallOutcome,
      spellings: ' (any case, or hyphenated)',
    }),
  },
  async run(ctx, opts) {
    const http = await ctx.http();
    const [taskId] = opts.args;
    const getTask = async () => (await call(http, tasksEndpoints.get, { params: { taskId } })).payload.task;
    const task = await getTask();
    let outcome = opts.outcome;
    if (task.type === 'call' && !outcome) {
      if (!ctx.interactive)
        throw new UsageError(`${taskId} is a call task: give --outcome`, `One of: ${callOutcomes.join(', ')}.`);
      outcome = await askOutcome(ctx);
    }
    if (task.type !== 'call' && outcome)
      throw new UsageError(
        `--outcome: ${taskId} is a ${task.type ?? 'non-call'} task; only call tasks take an outcome`,
      );
    const done = await completeTask(http, taskId, outcome);
    // The answer holds only the status and outcome: a script asking for JSON gets the whole task, read again. That
    // read may lag behind (a cache, an eventually consistent service): what the answer says wins over it.
    return doneResultRead(`Completed ${taskId}${done.callOutcome ? ` (${done.callOutcome})` : ''}.`, async () =>
      asCompleted(await getTask(), done),
    );
  },
});
