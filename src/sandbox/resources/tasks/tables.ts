// The tasks' tables: tasks with the columns the listing filters and sorts by, and the bulk actions.
import { defineTable } from '../../db/table.js';
import type { BulkActionRecord, TaskRecord } from '../../model.js';
import { priorityRank } from './view.js';

const ms = (iso: string | undefined) => (iso === undefined ? null : Date.parse(iso));

export const tasksTable = defineTable<TaskRecord>({
  name: 'tasks',
  id: (t) => t.taskId,
  columns: [
    { name: 'type', value: (t) => t.type },
    { name: 'done_status', value: (t) => t.doneStatus ?? null },
    { name: 'due_ms', type: 'INTEGER', value: (t) => ms(t.dueDate) },
    { name: 'completed_ms', type: 'INTEGER', value: (t) => ms(t.completedAt) },
    { name: 'skipped_ms', type: 'INTEGER', value: (t) => ms(t.skippedAt) },
    { name: 'priority_rank', type: 'INTEGER', value: (t) => priorityRank[t.priority] ?? null },
    { name: 'sequence_id', value: (t) => t.sequence.id },
    { name: 'assignee_id', value: (t) => t.taskAssignee.id },
    { name: 'prospect_outcome', value: (t) => t.sequence.prospectOutcome.toLowerCase() },
    { name: 'call_outcome', value: (t) => t.callOutcome ?? null },
    {
      name: 'search_text',
      value: (t) =>
        `${t.title} ${t.note} ${t.taskAssignee.firstName} ${t.taskAssignee.lastName} ${t.sequence.name}`.toLowerCase(),
    },
  ],
  compoundIndexes: [{ columns: 'done_status, due_ms' }],
});

export const bulkActionsTable = defineTable<BulkActionRecord>({ name: 'bulk_actions', id: (a) => a.bulkActionId });
