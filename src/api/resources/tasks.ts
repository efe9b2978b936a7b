import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import {
  tasksEndpoints,
  type BulkStatus,
  type CallOutcome,
  type ListTasksQuery,
  type Task,
} from '../contract/tasks.js';
import type { Page } from '../paginate.js';

export async function listTasksPage(http: HttpClient, query: ListTasksQuery): Promise<Page<Task>> {
  const { items, meta } = await call(http, tasksEndpoints.list, { query });
  return { items, totalPages: typeof meta?.totalPages === 'number' ? meta.totalPages : undefined };
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

export function isBulkDone(status: BulkStatus): boolean {
  if (status.status && /^(completed|done|finished|failed)$/i.test(status.status)) return true;
  return (
    status.pending === 0 &&
    status.totalTasks !== undefined &&
    (status.completed ?? 0) + (status.failed ?? 0) >= status.totalTasks
  );
}
