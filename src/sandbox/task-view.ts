// What a task looks like when read: its status follows from the clock (UTC days) unless it was completed or skipped.
import type { TaskRecord } from './model.js';

const dayMs = 86_400_000;
const priorityRank: Record<string, number> = { urgent: 1, high: 2, medium: 3, low: 4 };

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

/** Tasks without the sort field (never completed, say) sort last whichever the order. */
export function compareTasks(sortBy: string, order: 'ASC' | 'DESC'): (a: TaskRecord, b: TaskRecord) => number {
  const value = (task: TaskRecord): number | undefined => {
    if (sortBy === 'priority') return priorityRank[task.priority];
    const raw = sortBy === 'completedAt' ? task.completedAt : sortBy === 'skippedAt' ? task.skippedAt : task.dueDate;
    return raw ? Date.parse(raw) : undefined;
  };
  const direction = order === 'DESC' ? -1 : 1;
  return (a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === undefined || vb === undefined)
      return va === vb ? a.taskId.localeCompare(b.taskId) : va === undefined ? 1 : -1;
    return (va - vb) * direction || a.taskId.localeCompare(b.taskId);
  };
}
