// Webhooks (spec.md "Webhook", "Webhooks", "Events"). Creating one sends a real test delivery and records how it
// went: a failed one leaves the webhook paused with `failed: true` and `lastFailure`. At most 50 active webhooks per
// account (real-service-notes.md). The list is `{payload: {meta, webhooks: [{id, name}]}}`.
import { maxActiveWebhooks, webhookEvents, webhooksEndpoints } from '../../api/contract/webhooks.js';
import type { WebhookRecord } from '../model.js';
import { route, type Route, type SandboxResponse } from '../route.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';

function webhookById(store: Store, id: string): WebhookRecord {
  const webhook = store.state.webhooks.find((w) => w.id === id);
  if (!webhook) throw new SandboxError(404, 4040, `Webhook ${id} not found`);
  return webhook;
}

const shown = (webhook: WebhookRecord) => {
  const { lastFailure, ...rest } = webhook;
  return { ...rest, lastFailure: lastFailure ?? null };
};

/** What a sample event of each kind carries, after the common fields (`outreach webhooks trigger`). The email and
 * prospect events follow the skeleton real-service-notes.md describes: prospect, sequence and user blocks. */
export function sampleData(store: Store, kind: string): Record<string, unknown> {
  const prospect = store.prospects.first();
  const sequence = store.state.sequences[0];
  const task = store.state.tasks[0];
  const { account } = store.state;
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

export function taskFields(task: Store['state']['tasks'][number]) {
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
      : store.state.webhooks.filter((w) => w.status === 'active' && w.webhookEvent.includes(kind));
  const deliveries = await Promise.all(
    targets.map(async (webhook) => ({
      webhookId: webhook.id,
      ...(await store.webhooks!.deliver(webhook, kind, sampleData(store, kind))),
    })),
  );
  return { status: 200, body: { message: 'Sample event delivered', payload: { event: kind, deliveries } } };
}

export const webhooksRoutes: Route[] = [
  route(webhooksEndpoints.create, async (req, store) => {
    const { name, webhookUrl, webhookEvent, headers } = req.body;
    if (!/^https?:\/\/[^\s/]+/i.test(webhookUrl))
      throw new SandboxError(400, 1001, `Validation failed: body.webhookUrl must be an http(s) URL`);
    if (store.state.webhooks.filter((w) => w.status === 'active').length >= maxActiveWebhooks)
      throw new SandboxError(400, 1001, `An account can have at most ${maxActiveWebhooks} active webhooks`);
    const webhook: WebhookRecord = {
      id: store.hexId(),
      name,
      webhookUrl,
      webhookEvent: [...new Set(webhookEvent)],
      headers,
      status: 'active',
      failed: false,
      createdAt: store.isoNow(),
    };
    store.state.webhooks.push(webhook);
    const outcome = await store.webhooks!.testDelivery(webhook);
    return {
      status: 201,
      body: {
        message: 'Webhook created',
        payload: { ...shown(webhook), testDelivery: { status: outcome.ok ? 'success' : 'failed' } },
      },
    };
  }),

  route(webhooksEndpoints.list, (req, store) => {
    const page = req.query.page ?? 1;
    const pageSize = req.query.pageSize ?? 25;
    const items = store.state.webhooks.slice((page - 1) * pageSize, page * pageSize);
    return {
      status: 200,
      body: {
        message: 'Webhooks fetched',
        payload: {
          meta: {
            currentPage: page,
            itemsPerPage: pageSize,
            itemsCount: items.length,
            totalItems: store.state.webhooks.length,
          },
          webhooks: items.map((w) => ({ id: w.id, name: w.name })),
        },
      },
    };
  }),

  route(webhooksEndpoints.get, (req, store) => ({
    status: 200,
    body: { message: 'Webhook fetched', payload: shown(webhookById(store, req.params.webhookId)) },
  })),
];
