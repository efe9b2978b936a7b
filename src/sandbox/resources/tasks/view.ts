// What a task looks like when read: its status follows from the clock (UTC days) unless it was completed or skipped.
import type { TaskRecord } from '../../model.js';

const dayMs = 86_400_000;
export const priorityRank: Record<string, number> = { urgent: 1, high: 2, medium: 3, low: 4 };

export type TaskStatus = 'upcoming' | 'dueToday' | 'completed' | 'skipped' | 'overdue';

/** Overdue: due before today (UTC); dueToday: due at any time today; upcoming: due after today. */
export function taskStatus(task: TaskRecord, now: number): TaskStatus {
  if (task.doneStatus) return task.doneStatus;
  const due = Date.parse(task.dueDate);
  const startOfToday = Math.floor(now / dayMs) * dayMs;
  if (due < startOfToday) return 'overdue';
  if (due < startOfToday + dayMs) return 'dueToday';
  return 'upcoming';
}

export function taskView(task: TaskRecord, now: number): Record<string, unknown> {
  const { doneStatus: _stored, taskAssignee, ...rest } = task;
  return {
    ...rest,
    status: taskStatus(task, now),
    taskAssignee: { firstName: taskAssignee.firstName, lastName: taskAssignee.lastName, email: taskAssignee.email },
  };
}
