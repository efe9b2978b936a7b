import type { Column } from '../../cli/render/columns.js';
import type { Task } from '../../api/contract/tasks.js';

/** "in 3d", "5h ago": for people at a terminal. */
export function relativeTime(iso: string, now: number): string {
  const ms = Date.parse(iso) - now;
  if (Number.isNaN(ms)) return iso;
  const abs = Math.abs(ms);
  const [value, unit] =
    abs < 3_600_000
      ? [Math.round(abs / 60_000), 'm']
      : abs < 86_400_000
        ? [Math.round(abs / 3_600_000), 'h']
        : [Math.round(abs / 86_400_000), 'd'];
  return ms >= 0 ? `in ${value}${unit}` : `${value}${unit} ago`;
}

export function taskColumns(relative: boolean, now: number): Column<Task>[] {
  return [
    { header: 'ID', value: (t) => t.taskId },
    { header: 'TYPE', value: (t) => t.type, drop: 4 },
    { header: 'STATUS', value: (t) => t.status },
    { header: 'DUE', value: (t) => (t.dueDate ? (relative ? relativeTime(t.dueDate, now) : t.dueDate) : '') },
    // On a narrow terminal the title keeps 24 columns; priority, assignee, sequence and type go first, in that order.
    { header: 'TITLE', value: (t) => t.title, useful: 24 },
    { header: 'SEQUENCE', value: (t) => t.sequence?.name ?? '', drop: 3 },
    {
      header: 'ASSIGNEE',
      value: (t) => [t.taskAssignee?.firstName, t.taskAssignee?.lastName].filter(Boolean).join(' '),
      drop: 2,
    },
    {
      header: 'PRIORITY',
      value: (t) => (t.priority === null || t.priority === undefined ? '' : String(t.priority)),
      drop: 1,
    },
  ];
}
