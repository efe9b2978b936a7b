// Tasks: listing (filtered and sorted in SQL, a status following from the clock), completing, snoozing (a snoozed task
// is due again when the snooze ends), bulk skips and snoozes and their status.
import { stringify } from 'csv-stringify/sync';
import {
  maxBulkSkipTasks,
  maxBulkSnoozeTasks,
  normaliseCallOutcome,
  tasksEndpoints,
} from '../../../api/contract/tasks.js';
import { defineResource } from '../../resource.js';
import { routesOf, type SandboxResponse } from '../../route.js';
import { SandboxError } from '../../sandbox-error.js';
import type { TaskRecord } from '../../model.js';
import type { Store } from '../../store.js';
import { addReport } from '../reports/index.js';
import { taskFields } from '../webhooks/events.js';
import { taskListing, taskOrder } from './listing.js';
import { seedTasks } from './seed.js';
import { bulkActionsTable, tasksTable } from './tables.js';
import { taskView } from './view.js';

export const defaultTaskPageSize = 25;

/** A bulk action reports completion this long after it was accepted. */
export function bulkDelayMs(tasks: number): number {
  return 300 + 5 * tasks;
}

const taskNotFound = (id: string) => new SandboxError(404, 4040, `Task ${id} could not be found`);

/** A snoozed task is due again when the snooze ends. */
function snoozeTask(task: TaskRecord, until: string): void {
  task.dueDate = new Date(until).toISOString();
  task.snoozedUntil = task.dueDate;
}

function checkFuture(store: Store, until: string): void {
  if (Date.parse(until) <= store.now())
    throw new SandboxError(400, 1001, `Validation failed: body.snoozeUntil ${until} is not in the future`);
}

/**
 * A bulk action over tasks: `apply` changes a task (returning it to be saved), leaves it as it is (undefined), or says
 * why it cannot (a failure of the report). Unknown ids fail; the action completes after bulkDelayMs.
 */
function bulkAction(
  store: Store,
  action: 'skip' | 'snooze',
  taskIds: string[],
  apply: (task: TaskRecord) => TaskRecord | string | undefined,
): SandboxResponse {
  const table = store.table(tasksTable);
  const unique = [...new Set(taskIds)];
  const failures: Array<[string, string]> = [];
  for (const id of unique) {
    const task = table.get(id);
    const outcome = task ? apply(task) : 'task not found';
    if (typeof outcome === 'string') failures.push([id, outcome]);
    else if (outcome) table.put(outcome);
  }
  const bulkActionId = store.id();
  const reportId = failures.length ? addReport(store, stringify([['taskId', 'reason'], ...failures])) : undefined;
  const failed = new Set(failures.map(([id]) => id));
  store.emitEvent('bulk-task-updated', {
    bulkAction: { bulkActionId, action, totalTasks: unique.length, failed: failures.length },
    taskIds: unique.filter((id) => !failed.has(id)),
  });
  store.table(bulkActionsTable).put({
    bulkActionId,
    action,
    createdAt: store.now(),
    completesAt: store.now() + bulkDelayMs(unique.length),
    totalTasks: unique.length,
    failed: failures.length,
    reportId,
  });
  const message = `Bulk ${action} started`;
  return { status: 200, body: { bulkActionId, message, statusCheckUrl: `/v1/tasks/bulk-status/${bulkActionId}` } };
}

function findTask(store: Store, id: string): TaskRecord {
  const task = store.table(tasksTable).get(id);
  if (!task) throw taskNotFound(id);
  return task;
}

const routes = routesOf(tasksEndpoints, {
  list: (req, store) => {
    const query = req.query;
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? defaultTaskPageSize;
    const now = store.now();
    const table = store.table(tasksTable);
    const { where, params } = taskListing(query, now);
    const totalItems = table.count(where, ...params);
    const orderBy = taskOrder(query.sortBy, query.sortOrder);
    const offset = (page - 1) * pageSize;
    // A page past the end is empty (an offset past SQLite's integers would fail the query).
    const rows = offset >= totalItems ? [] : table.select(where, params, { orderBy, limit: pageSize, offset });
    const tasks = rows.map((t) => taskView(t, now));
    return {
      status: 200,
      body: {
        message: 'Tasks fetched successfully',
        payload: {
          tasks,
          meta: {
            totalItems,
            currentPage: page,
            itemsPerPage: pageSize,
            totalPages: Math.ceil(totalItems / pageSize),
          },
        },
      },
    };
  },

  get: (req, store) => ({
    status: 200,
    body: {
      message: 'Task fetched successfully',
      payload: { task: taskView(findTask(store, req.params.taskId), store.now()) },
    },
  }),

  complete: (req, store) => {
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
      store.table(tasksTable).put(task);
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
  },

  bulkSkip: (req, store) => {
    const { taskIds } = req.body;
    if (taskIds.length > maxBulkSkipTasks)
      throw new SandboxError(400, 4000, `Up to ${maxBulkSkipTasks} tasks can be skipped per request`);
    const now = store.isoNow();
    return bulkAction(store, 'skip', taskIds, (task) => {
      if (task.doneStatus === 'completed') return 'task already completed';
      // Skipping a skipped task changes nothing and is no failure, so a replayed batch reports the same.
      if (task.doneStatus) return undefined;
      task.doneStatus = 'skipped';
      task.skippedAt = now;
      return task;
    });
  },

  skip: (req, store) => {
    const task = findTask(store, req.params.taskId);
    if (task.doneStatus === 'completed')
      throw new SandboxError(400, 4000, `Task ${task.taskId} was completed and cannot be skipped`);
    // Skipping a skipped task changes nothing, and says so as the first time did.
    if (!task.doneStatus) {
      task.doneStatus = 'skipped';
      task.skippedAt = store.isoNow();
      store.table(tasksTable).put(task);
      store.emitEvent('task-updated', { task: taskFields(task) });
      store.emitEvent(`${task.type}-task-updated`, { task: taskFields(task) });
    }
    return {
      status: 200,
      body: { message: 'Task skipped successfully', payload: { task: { taskId: task.taskId, status: 'skipped' } } },
    };
  },

  snooze: (req, store) => {
    const task = findTask(store, req.params.taskId);
    const { snoozeUntil, callOutcome } = req.body;
    checkFuture(store, snoozeUntil);
    if (task.doneStatus)
      throw new SandboxError(400, 4000, `Task ${task.taskId} was ${task.doneStatus} and cannot be snoozed`);
    snoozeTask(task, snoozeUntil);
    if (callOutcome && task.type === 'call') task.callOutcome = normaliseCallOutcome(callOutcome);
    store.table(tasksTable).put(task);
    store.emitEvent('task-updated', { task: taskFields(task) });
    store.emitEvent(`${task.type}-task-updated`, { task: taskFields(task) });
    const shown = {
      taskId: task.taskId,
      status: 'snoozed',
      snoozedUntil: snoozeUntil,
      callOutcome: task.callOutcome ?? null,
    };
    return { status: 200, body: { message: 'Task snoozed successfully', payload: { task: shown } } };
  },

  bulkSnooze: (req, store) => {
    const { taskIds, snoozeUntil } = req.body;
    if (taskIds.length > maxBulkSnoozeTasks)
      throw new SandboxError(400, 4000, `Up to ${maxBulkSnoozeTasks} tasks can be snoozed per request`);
    checkFuture(store, snoozeUntil);
    return bulkAction(store, 'snooze', taskIds, (task) => {
      if (task.doneStatus) return `task already ${task.doneStatus}`;
      snoozeTask(task, snoozeUntil);
      return task;
    });
  },

  bulkStatus: (req, store) => {
    const action = store.table(bulkActionsTable).get(req.params.bulkActionId);
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
  },
});

export const tasksResource = defineResource({
  tables: [tasksTable, bulkActionsTable],
  routes,
  seed(store) {
    const table = store.table(tasksTable);
    for (const task of seedTasks(store)) table.put(task);
  },
});
