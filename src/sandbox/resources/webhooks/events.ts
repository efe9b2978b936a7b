// Webhook events: what a sample of each kind carries, the task fields task events carry, and the sample trigger.
import { webhookEvents } from '../../../api/contract/webhooks.js';
import type { TaskRecord } from '../../model.js';
import type { SandboxResponse } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import type { Store } from '../../store.js';
import { prospectsTable } from '../prospects/tables.js';
import { sequencesTable } from '../sequences/table.js';
import { tasksTable } from '../tasks/tables.js';
import { subscribed, webhooksTable } from './table.js';

export function webhookById(store: Store, id: string) {
  const webhook = store.table(webhooksTable).get(id);
  if (!webhook) throw new SandboxError(404, 4040, `Webhook ${id} not found`);
  return webhook;
}

/** What a sample event of each kind carries, after the common fields (`outreach webhooks trigger`). The email and
 * prospect events follow the skeleton real-service-notes.md describes: prospect, sequence and user blocks. */
export function sampleData(store: Store, kind: string): Record<string, unknown> {
  const prospect = store.table(prospectsTable).first();
  const sequence = store.table(sequencesTable).first();
  const task = store.table(tasksTable).first();
  const account = store.account();
  if (kind.endsWith('task-updated') || kind === 'task-created') {
    if (kind === 'bulk-task-updated')
      return {
        bulkAction: { bulkActionId: 'sample', action: 'skip', totalTasks: 1, failed: 0 },
        taskIds: [task?.taskId],
      };
    return { task: task && taskFields(task) };
  }
  if (kind === 'sequence-paused') return { sequence: { id: sequence?.id, name: sequence?.name } };
  if (kind.startsWith('email-account'))
    return {
      emailAccount: { email: account.email, reason: kind === 'email-account-paused' ? 'sending limit' : 'token' },
    };
  if (kind === 'inbox-analyser-test-completed') return { inboxAnalyser: { score: 92, status: 'completed' } };
  return {
    prospect: prospect && { email: prospect.email, ...prospect.values, latestStatus: prospect.status },
    sequence: sequence && {
      id: sequence.id,
      sequenceName: sequence.name,
      stepID: sequence.steps[0]?.id,
      stepNumber: '1',
    },
    user: { firstName: account.firstName, lastName: account.lastName, email: account.email },
  };
}

export function taskFields(task: TaskRecord) {
  return {
    taskId: task.taskId,
    type: task.type,
    status: task.doneStatus ?? 'open',
    title: task.title,
    dueDate: task.dueDate,
    callOutcome: task.callOutcome ?? null,
  };
}

/** `POST /_sandbox/webhooks/trigger {event, webhookId?}`: delivers a sample event now, to that webhook or to every
 * active one subscribed to the kind, and answers with each delivery's outcome. */
export async function triggerSample(store: Store, body: Record<string, unknown>): Promise<SandboxResponse> {
  const kind = String(body.event ?? '');
  if (!(webhookEvents as readonly string[]).includes(kind))
    throw new SandboxError(400, 1001, `Validation failed: body.event must be one of ${webhookEvents.join(', ')}`);
  const targets =
    typeof body.webhookId === 'string'
      ? [webhookById(store, body.webhookId)]
      : subscribed(store.table(webhooksTable).all(), kind);
  const deliveries = await Promise.all(
    targets.map(async (webhook) => ({
      webhookId: webhook.id,
      ...(await store.webhooks!.deliver(webhook, kind, sampleData(store, kind))),
    })),
  );
  return { status: 200, body: { message: 'Sample event delivered', payload: { event: kind, deliveries } } };
}
