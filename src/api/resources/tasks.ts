import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { isObject } from '../contract/envelope.js';
import { ApiError } from '../../errors.js';
import {
  bulkStatusSchema,
  taskSchema,
  tasksEndpoints,
  type BulkStatus,
  type CallOutcome,
  type ListTasksQuery,
  type Task,
} from '../contract/tasks.js';
import type { Page } from '../paginate.js';

/** The list's shape is not documented: a bare array, payload as an array, or payload.tasks (with an optional meta). */
function readTaskPage(body: unknown): Page<Task> {
  let node: unknown = body;
  let meta: Record<string, unknown> | undefined;
  for (let depth = 0; depth < 3 && isObject(node); depth++) {
    if (isObject(node.meta)) meta = node.meta;
    node = Array.isArray(node.tasks) ? node.tasks : 'payload' in node ? node.payload : node.data;
  }
  if (!Array.isArray(node))
    throw new ApiError('unexpected answer from GET /v1/tasks: no list of tasks in it', {
      status: 200,
      method: 'GET',
      path: '/v1/tasks',
    });
  const items = node.map((raw) => {
    const parsed = taskSchema.safeParse(raw);
    if (!parsed.success)
      throw new ApiError('unexpected answer from GET /v1/tasks: a task without taskId', {
        status: 200,
        method: 'GET',
        path: '/v1/tasks',
      });
    return parsed.data;
  });
  const totalPages = typeof meta?.totalPages === 'number' ? meta.totalPages : undefined;
  return { items, totalPages };
}

export async function listTasksPage(http: HttpClient, query: ListTasksQuery): Promise<Page<Task>> {
  return readTaskPage(await call(http, tasksEndpoints.list, { query }));
}

export async function getTask(http: HttpClient, taskId: string): Promise<Task> {
  return (await call(http, tasksEndpoints.get, { params: { taskId } })).payload.task;
}

export async function completeTask(
  http: HttpClient,
  taskId: string,
  callOutcome?: CallOutcome,
): Promise<{ status?: string; callOutcome?: string | null }> {
  const body = await call(http, tasksEndpoints.complete, {
    params: { taskId },
    body: callOutcome ? { callOutcome } : {},
  });
  return body.payload?.task ?? { status: 'completed' };
}

export async function bulkSkip(
  http: HttpClient,
  taskIds: string[],
): Promise<{ bulkActionId: string; statusCheckUrl?: string }> {
  return call(http, tasksEndpoints.bulkSkip, { body: { taskIds } });
}

export async function bulkStatus(http: HttpClient, bulkActionId: string): Promise<BulkStatus> {
  const body = await call(http, tasksEndpoints.bulkStatus, { params: { bulkActionId } });
  return 'payload' in body && isObject(body.payload) ? bulkStatusSchema.parse(body.payload) : (body as BulkStatus);
}

export function isBulkDone(status: BulkStatus): boolean {
  if (status.status && /^(completed|done|finished|failed)$/i.test(status.status)) return true;
  return (
    status.pending === 0 &&
    status.totalTasks !== undefined &&
    (status.completed ?? 0) + (status.failed ?? 0) >= status.totalTasks
  );
}
