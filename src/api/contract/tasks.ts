import { z } from 'zod';
import { endpoint } from './endpoint.js';

export const taskTypes = ['linkedin', 'call', 'whatsapp', 'custom'] as const;
export const taskStatuses = ['upcoming', 'dueToday', 'completed', 'skipped', 'overdue'] as const;
export const taskSortFields = ['priority', 'completedAt', 'skippedAt', 'dueDate'] as const;
export const sortOrders = ['ASC', 'DESC'] as const;

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

const callOutcome = z.string().refine((value) => normaliseCallOutcome(value) !== undefined, {
  message: `must be one of ${callOutcomes.join(', ')}`,
});
const positive = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`);

export const listTasksQuery = z.strictObject({
  page: positive('page').optional(),
  pageSize: positive('pageSize').optional(),
  sortOrder: z.enum(sortOrders).optional(),
  sortBy: z.enum(taskSortFields).optional(),
  status: z.enum(taskStatuses).optional(),
  sequenceId: z.string().min(1).optional(),
  taskAssignee: z.string().min(1).optional(),
  prospectOutcome: z.string().min(1).optional(),
  taskType: z.enum(taskTypes).optional(),
  search: z.string().optional(),
  callOutcome: callOutcome.optional(),
});
export type ListTasksQuery = z.infer<typeof listTasksQuery>;

export const taskSchema = z.looseObject({
  taskId: z.union([z.string(), z.number()]).transform(String),
  type: z.string().optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  dueDate: z.string().nullish(),
  taskAssignee: z
    .looseObject({ firstName: z.string().nullish(), lastName: z.string().nullish(), email: z.string().nullish() })
    .nullish(),
  note: z.string().nullish(),
  priority: z.union([z.string(), z.number()]).nullish(),
  sequence: z
    .looseObject({
      id: z.union([z.string(), z.number()]).nullish(),
      name: z.string().nullish(),
      stepId: z.unknown(),
      stepNumber: z.unknown(),
      prospectOutcome: z.string().nullish(),
    })
    .nullish(),
  callOutcome: z.string().nullish(),
});
export type Task = z.infer<typeof taskSchema>;

export const bulkStatusSchema = z.looseObject({
  bulkActionId: z.union([z.string(), z.number()]).transform(String),
  action: z.string().optional(),
  totalTasks: z.number().optional(),
  completed: z.number().optional(),
  failed: z.number().optional(),
  pending: z.number().optional(),
  status: z.string().optional(),
  createdAt: z.string().nullish(),
  completedAt: z.string().nullish(),
  csvDownloadLink: z.string().nullish(),
});
export type BulkStatus = z.infer<typeof bulkStatusSchema>;

export const tasksEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v1/tasks',
    replaySafe: true,
    query: listTasksQuery,
    // Not shown in spec.md: the sandbox answers {payload: {tasks, meta}}; a bare array or payload array is read too.
    response: z.unknown(),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v1/tasks/{taskId}',
    replaySafe: true,
    params: z.object({ taskId: z.string().min(1) }),
    response: z.looseObject({ message: z.string().optional(), payload: z.looseObject({ task: taskSchema }) }),
  }),
  complete: endpoint({
    method: 'POST',
    path: '/v1/tasks/{taskId}/complete',
    // Completing a completed task again changes nothing.
    replaySafe: true,
    params: z.object({ taskId: z.string().min(1) }),
    body: z.strictObject({ callOutcome: callOutcome.optional() }),
    response: z.looseObject({
      message: z.string().optional(),
      payload: z
        .looseObject({
          task: z.looseObject({
            taskId: z.unknown(),
            status: z.string().optional(),
            callOutcome: z.string().nullish(),
          }),
        })
        .optional(),
    }),
  }),
  bulkSkip: endpoint({
    method: 'POST',
    path: '/v1/tasks/bulk-skip',
    // Skipping a skipped task is a no-op: a replayed batch ends in the same state.
    replaySafe: true,
    body: z.strictObject({
      taskIds: z.array(z.string().min(1)).min(1, 'at least one task id').max(100, 'at most 100 task ids per request'),
    }),
    response: z.looseObject({
      bulkActionId: z.union([z.string(), z.number()]).transform(String),
      message: z.string().optional(),
      statusCheckUrl: z.string().optional(),
    }),
  }),
  bulkStatus: endpoint({
    method: 'GET',
    path: '/v1/tasks/bulk-status/{bulkActionId}',
    replaySafe: true,
    params: z.object({ bulkActionId: z.string().min(1) }),
    // Flat in the real service; a payload wrapper is read too.
    response: z.union([bulkStatusSchema, z.looseObject({ payload: bulkStatusSchema })]),
  }),
};
