import * as z from 'zod/mini';
import { count, id, listOf, nonEmpty, nullish, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

export const taskTypes = ['linkedin', 'call', 'whatsapp', 'custom'] as const;
export const taskStatuses = ['upcoming', 'dueToday', 'completed', 'skipped', 'overdue'] as const;
export const taskSortFields = ['priority', 'completedAt', 'skippedAt', 'dueDate'] as const;
export const sortOrders = ['ASC', 'DESC'] as const;
/** Task ids per bulk-skip request (spec.md, Limits). */
export const maxBulkSkipTasks = 100;
/** Task ids per bulk-snooze request (real-service-notes.md). */
export const maxBulkSnoozeTasks = 10_000;

/** spec.md's list. The samples spell them lowercase and hyphenated (`no-answer`); both are read, title case is sent. */
export const callOutcomes = [
  'Interested',
  'Callback Later',
  'Followup',
  'Not Interested',
  'Wrong Number',
  'No Answer',
  'Left Voicemail',
  'Not In Service',
] as const;
export type CallOutcome = (typeof callOutcomes)[number];

const key = (value: string) => value.toLowerCase().replace(/[\s_-]+/g, '');

/** "No Answer", "no answer" and "no-answer" all mean No Answer. */
export function normaliseCallOutcome(value: string): CallOutcome | undefined {
  return callOutcomes.find((outcome) => key(outcome) === key(value));
}

const callOutcome = z
  .string()
  .check(z.refine((value) => normaliseCallOutcome(value) !== undefined, `must be one of ${callOutcomes.join(', ')}`));

/** When a snoozed task comes back: an ISO 8601 date-time with its zone (`2026-12-01T09:00:00Z`). */
export const snoozeUntil = z
  .string()
  .check(
    z.refine(
      (value) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value) &&
        !Number.isNaN(Date.parse(value)),
      'must be an ISO 8601 date-time with a zone, such as 2026-12-01T09:00:00Z',
    ),
  );

const taskIdList = (max: number) =>
  z
    .array(nonEmpty)
    .check(z.minLength(1, 'at least one task id'), z.maxLength(max, `at most ${max} task ids per request`));

const bulkStarted = z.looseObject({
  bulkActionId: id,
  message: optional(z.string()),
  statusCheckUrl: optional(z.string()),
});

export const listTasksQuery = z.strictObject({
  page: optional(count('page')),
  pageSize: optional(count('pageSize')),
  sortOrder: optional(z.enum(sortOrders)),
  sortBy: optional(z.enum(taskSortFields)),
  status: optional(z.enum(taskStatuses)),
  sequenceId: optional(nonEmpty),
  taskAssignee: optional(nonEmpty),
  prospectOutcome: optional(nonEmpty),
  taskType: optional(z.enum(taskTypes)),
  search: optional(z.string()),
  callOutcome: optional(callOutcome),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

export const taskSchema = z.looseObject({
  taskId: id,
  type: optional(z.string()),
  title: optional(z.string()),
  status: optional(z.string()),
  dueDate: nullish(z.string()),
  taskAssignee: nullish(
    z.looseObject({ firstName: nullish(z.string()), lastName: nullish(z.string()), email: nullish(z.string()) }),
  ),
  note: nullish(z.string()),
  priority: nullish(z.union([z.string(), z.number()])),
  sequence: nullish(
    z.looseObject({
      id: nullish(z.union([z.string(), z.number()])),
      name: nullish(z.string()),
      stepId: z.unknown(),
      stepNumber: z.unknown(),
      prospectOutcome: nullish(z.string()),
    }),
  ),
  callOutcome: nullish(z.string()),
});
export type Task = z.infer<typeof taskSchema>;

export const bulkStatusSchema = z.looseObject({
  bulkActionId: id,
  action: optional(z.string()),
  totalTasks: optional(z.number()),
  completed: optional(z.number()),
  failed: optional(z.number()),
  pending: optional(z.number()),
  status: optional(z.string()),
  createdAt: nullish(z.string()),
  completedAt: nullish(z.string()),
  csvDownloadLink: nullish(z.string()),
});
export type BulkStatus = z.infer<typeof bulkStatusSchema>;

export const tasksEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v1/tasks',
    replaySafe: true,
    query: listTasksQuery,
    // Not shown in spec.md: the sandbox answers {payload: {tasks, meta}}; a bare array or payload array is read too.
    response: listOf(taskSchema, ['tasks']),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/tasks/{taskId}',
    replaySafe: true,
    params: z.object({ taskId: nonEmpty }),
    response: z.looseObject({ message: optional(z.string()), payload: z.looseObject({ task: taskSchema }) }),
    notFound: { what: 'task', param: 'taskId', hint: 'See the ids with `outreach tasks list`.' },
  }),
  complete: endpoint({
    method: 'POST',
    path: '/v1/tasks/{taskId}/complete',
    // Completing a completed task again changes nothing.
    replaySafe: true,
    params: z.object({ taskId: nonEmpty }),
    body: z.strictObject({ callOutcome: optional(callOutcome) }),
    response: z.looseObject({
      message: optional(z.string()),
      payload: optional(
        z.looseObject({
          task: z.looseObject({ taskId: z.unknown(), status: optional(z.string()), callOutcome: nullish(z.string()) }),
        }),
      ),
    }),
  }),
  bulkSkip: endpoint({
    method: 'POST',
    path: '/v1/tasks/bulk-skip',
    // Skipping a skipped task is a no-op: a replayed batch ends in the same state.
    replaySafe: true,
    body: z.strictObject({ taskIds: taskIdList(maxBulkSkipTasks) }),
    response: bulkStarted,
  }),
  skip: endpoint({
    method: 'POST',
    path: '/v1/tasks/{taskId}/skip',
    // Skipping a skipped task changes nothing (real-service-notes.md: no body; the answer is not documented).
    replaySafe: true,
    params: z.object({ taskId: nonEmpty }),
    response: z.looseObject({
      message: optional(z.string()),
      payload: optional(z.looseObject({ task: z.looseObject({ taskId: z.unknown(), status: optional(z.string()) }) })),
    }),
    notFound: { what: 'task', param: 'taskId', hint: 'See the ids with `outreach tasks list`.' },
  }),
  snooze: endpoint({
    method: 'POST',
    path: '/v1/tasks/{taskId}/snooze',
    // Snoozing to the same time again ends in the same state.
    replaySafe: true,
    params: z.object({ taskId: nonEmpty }),
    body: z.strictObject({ snoozeUntil, callOutcome: optional(callOutcome) }),
    response: z.looseObject({
      message: optional(z.string()),
      payload: optional(
        z.looseObject({
          task: z.looseObject({
            taskId: z.unknown(),
            status: optional(z.string()),
            snoozedUntil: nullish(z.string()),
            callOutcome: nullish(z.string()),
          }),
        }),
      ),
    }),
  }),
  bulkSnooze: endpoint({
    method: 'POST',
    path: '/v1/tasks/bulk-snooze',
    // Snoozing snoozed tasks to the same time is a no-op: a replayed batch ends in the same state.
    replaySafe: true,
    body: z.strictObject({ taskIds: taskIdList(maxBulkSnoozeTasks), snoozeUntil }),
    response: bulkStarted,
  }),
  bulkStatus: endpoint({
    method: 'GET',
    path: '/v1/tasks/bulk-status/{bulkActionId}',
    replaySafe: true,
    params: z.object({ bulkActionId: nonEmpty }),
    // Flat in the real service; a payload wrapper is read too.
    response: wrapped(bulkStatusSchema, 'bulkActionId'),
    notFound: {
      what: 'bulk action',
      param: 'bulkActionId',
      hint: 'Bulk action ids are printed by `outreach tasks bulk-skip` and `bulk-snooze` (--json: bulkActionIds).',
    },
  }),
};
