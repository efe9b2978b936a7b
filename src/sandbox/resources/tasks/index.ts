// Tasks: listing (filtered and sorted in SQL, a status following from the clock), completing, bulk skips and their
// status.
import { stringify } from 'csv-stringify/sync';
import { maxBulkSkipTasks, normaliseCallOutcome, tasksEndpoints } from '../../../api/contract/tasks.js';
import { defineResource } from '../../resource.js';
import { routesOf } from '../../route.js';
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
    const tasks = table
      .select(where, params, { orderBy, limit: pageSize, offset: (page - 1) * pageSize })
      .map((t) => taskView(t, now));
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
    const table = store.table(tasksTable);
    const failures: Array<[string, string]> = [];
    const now = store.isoNow();
    for (const id of new Set(taskIds)) {
      const task = table.get(id);
      if (!task) failures.push([id, 'task not found']);
      else if (task.doneStatus === 'completed') failures.push([id, 'task already completed']);
      else if (!task.doneStatus) {
        // Skipping a skipped task changes nothing and is no failure, so a replayed batch reports the same.
        task.doneStatus = 'skipped';
        task.skippedAt = now;
        table.put(task);
      }
    }
    const bulkActionId = store.id();
    const reportId = failures.length ? addReport(store, stringify([['taskId', 'reason'], ...failures])) : undefined;
    const total = new Set(taskIds).size;
    store.emitEvent('bulk-task-updated', {
      bulkAction: { bulkActionId, action: 'skip', totalTasks: total, failed: failures.length },
      taskIds: [...new Set(taskIds)].filter((id) => !failures.some(([failed]) => failed === id)),
    });
    store.table(bulkActionsTable).put({
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
