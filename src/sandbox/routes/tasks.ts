import { stringify } from 'csv-stringify/sync';
import {
  maxBulkSkipTasks,
  normaliseCallOutcome,
  tasksEndpoints,
  type ListTasksQuery,
} from '../../api/contract/tasks.js';
import { taskFields } from './webhooks.js';
import { route, type Route } from '../route.js';
import { unguessableId } from '../ids.js';
import { SandboxError } from '../sandbox-error.js';
import type { Store } from '../store.js';
import type { TaskRecord } from '../model.js';
import { compareTasks, taskStatus, taskView } from '../task-view.js';

export const defaultTaskPageSize = 25;

/** A bulk action reports completion this long after it was accepted. */
export function bulkDelayMs(tasks: number): number {
  return 300 + 5 * tasks;
}

const taskNotFound = (id: string) => new SandboxError(404, 4040, `Task ${id} could not be found`);

function matches(task: TaskRecord, query: ListTasksQuery, now: number): boolean {
  if (query.status && taskStatus(task, now) !== query.status) return false;
  if (query.taskType && task.type !== query.taskType) return false;
  if (query.sequenceId && task.sequence.id !== query.sequenceId) return false;
  if (query.taskAssignee && task.taskAssignee.id !== query.taskAssignee) return false;
  if (query.prospectOutcome && task.sequence.prospectOutcome.toLowerCase() !== query.prospectOutcome.toLowerCase())
    return false;
  if (query.callOutcome && task.callOutcome !== normaliseCallOutcome(query.callOutcome)) return false;
  if (query.search) {
    const needle = query.search.toLowerCase();
    const haystack =
      `${task.title} ${task.note} ${task.taskAssignee.firstName} ${task.taskAssignee.lastName} ${task.sequence.name}`.toLowerCase();
    if (!haystack.includes(needle)) return false;
  }
  return true;
}

/** The filtered, sorted tasks of a listing; paging through 100,000 tasks would sort them all for every page. */
function selection(store: Store, query: ListTasksQuery): TaskRecord[] {
  const now = store.now();
  const { page: _page, pageSize: _size, ...filters } = query;
  // Statuses follow the clock, so the day is part of the key.
  const key = `${JSON.stringify(filters)}|${Math.floor(now / 86_400_000)}`;
  return store.taskSelection(key, () =>
    store.state.tasks
      .filter((t) => matches(t, query, now))
      .sort(compareTasks(query.sortBy ?? 'dueDate', query.sortOrder ?? 'ASC')),
  );
}

function findTask(store: Store, id: string): TaskRecord {
  const task = store.state.tasks.find((t) => t.taskId === id);
  if (!task) throw taskNotFound(id);
  return task;
}

export const tasksRoutes: Route[] = [
  route(tasksEndpoints.list, (req, store) => {
    const query = req.query;
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? defaultTaskPageSize;
    const all = selection(store, query);
    const now = store.now();
    const tasks = all.slice((page - 1) * pageSize, page * pageSize).map((t) => taskView(t, now));
    return {
      status: 200,
      body: {
        message: 'Tasks fetched successfully',
        payload: {
          tasks,
          meta: {
            totalItems: all.length,
            currentPage: page,
            itemsPerPage: pageSize,
            totalPages: Math.ceil(all.length / pageSize),
          },
        },
      },
    };
  }),

  route(tasksEndpoints.get, (req, store) => ({
    status: 200,
    body: {
      message: 'Task fetched successfully',
      payload: { task: taskView(findTask(store, req.params.taskId), store.now()) },
    },
  })),

  route(tasksEndpoints.complete, (req, store) => {
    const task = findTask(store, req.params.taskId);
    const { callOutcome } = req.body;
    if (task.doneStatus === 'skipped')
      throw new SandboxError(400, 4000, `Task ${task.taskId} was skipped and cannot be completed`);
    if (task.type === 'call' && !callOutcome)
      throw new SandboxError(400, 1001, 'callOutcome is required to complete a call task');
    if (task.doneStatus !== 'completed') {
      task.doneStatus = 'completed';
      task.completedAt = store.isoNow();
      if (task.type === 'call') task.callOutcome = normaliseCallOutcome(callOutcome!);
      store.touch();
      store.emitEvent('task-updated', { task: taskFields(task) });
      store.emitEvent(`${task.type}-task-updated`, { task: taskFields(task) });
    }
    return {
      status: 200,
      body: {
        message: 'Task completed successfully',
        payload: { task: { taskId: task.taskId, status: 'completed', callOutcome: task.callOutcome ?? null } },
      },
    };
  }),

  route(tasksEndpoints.bulkSkip, (req, store) => {
    const { taskIds } = req.body;
    if (taskIds.length > maxBulkSkipTasks)
      throw new SandboxError(400, 4000, `Up to ${maxBulkSkipTasks} tasks can be skipped per request`);
    const byId = store.taskIndex();
    const failures: Array<[string, string]> = [];
    const now = store.isoNow();
    for (const id of new Set(taskIds)) {
      const task = byId.get(id);
      if (!task) failures.push([id, 'task not found']);
      else if (task.doneStatus === 'completed') failures.push([id, 'task already completed']);
      else if (!task.doneStatus) {
        // Skipping a skipped task changes nothing and is no failure, so a replayed batch reports the same.
        task.doneStatus = 'skipped';
        task.skippedAt = now;
      }
    }
    store.touch();
    const bulkActionId = store.id();
    let reportId: string | undefined;
    if (failures.length) {
      reportId = unguessableId();
      store.state.reports.push({ id: reportId, csv: stringify([['taskId', 'reason'], ...failures]) });
    }
    const total = new Set(taskIds).size;
    store.emitEvent('bulk-task-updated', {
      bulkAction: { bulkActionId, action: 'skip', totalTasks: total, failed: failures.length },
      taskIds: [...new Set(taskIds)].filter((id) => !failures.some(([failed]) => failed === id)),
    });
    store.state.bulkActions.push({
      bulkActionId,
      action: 'skip',
      createdAt: store.now(),
      completesAt: store.now() + bulkDelayMs(total),
      totalTasks: total,
      failed: failures.length,
      reportId,
    });
    return {
      status: 200,
      body: { bulkActionId, message: 'Bulk skip started', statusCheckUrl: `/v1/tasks/bulk-status/${bulkActionId}` },
    };
  }),

  route(tasksEndpoints.bulkStatus, (req, store) => {
    const action = store.state.bulkActions.find((a) => a.bulkActionId === req.params.bulkActionId);
    if (!action) throw new SandboxError(404, 4040, `Bulk action ${req.params.bulkActionId} could not be found`);
    const done = store.now() >= action.completesAt;
    const body: Record<string, unknown> = {
      bulkActionId: action.bulkActionId,
      action: action.action,
      totalTasks: action.totalTasks,
      completed: done ? action.totalTasks - action.failed : 0,
      failed: done ? action.failed : 0,
      pending: done ? 0 : action.totalTasks,
      status: done ? 'completed' : 'pending',
      createdAt: new Date(action.createdAt).toISOString(),
      completedAt: done ? new Date(action.completesAt).toISOString() : null,
    };
    if (done && action.reportId) body.csvDownloadLink = `${req.origin}/files/reports/${action.reportId}.csv`;
    return { status: 200, body };
  }),
];
