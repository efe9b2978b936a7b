// A task listing as SQL over the tasks table's columns: the filters (a status follows from the clock: UTC days), and
// the order (tasks without the sort field, never completed say, sort last whichever the order; ties by id).
import { normaliseCallOutcome, type ListTasksQuery } from '../../../api/contract/tasks.js';

const dayMs = 86_400_000;
const sortColumns: Record<string, string> = {
  priority: 'priority_rank',
  completedAt: 'completed_ms',
  skippedAt: 'skipped_ms',
  dueDate: 'due_ms',
};

export function taskListing(query: ListTasksQuery, now: number): { where: string; params: Array<string | number> } {
  const clauses: string[] = [];
  const params: Array<string | number> = [];
  const add = (clause: string, ...values: Array<string | number>) => {
    clauses.push(clause);
    params.push(...values);
  };
  const startOfToday = Math.floor(now / dayMs) * dayMs;
  if (query.status === 'completed' || query.status === 'skipped') add('done_status = ?', query.status);
  else if (query.status === 'overdue') add('done_status IS NULL AND due_ms < ?', startOfToday);
  else if (query.status === 'dueToday')
    add('done_status IS NULL AND due_ms >= ? AND due_ms < ?', startOfToday, startOfToday + dayMs);
  else if (query.status === 'upcoming') add('done_status IS NULL AND due_ms >= ?', startOfToday + dayMs);
  if (query.taskType) add('type = ?', query.taskType);
  if (query.sequenceId) add('sequence_id = ?', query.sequenceId);
  if (query.taskAssignee) add('assignee_id = ?', query.taskAssignee);
  if (query.prospectOutcome) add('prospect_outcome = ?', query.prospectOutcome.toLowerCase());
  if (query.callOutcome) add('call_outcome = ?', normaliseCallOutcome(query.callOutcome) ?? query.callOutcome);
  if (query.search) add('instr(search_text, ?) > 0', query.search.toLowerCase());
  return { where: clauses.join(' AND ') || '1', params };
}

export function taskOrder(sortBy: string | undefined, order: 'ASC' | 'DESC' | undefined): string {
  const column = sortColumns[sortBy ?? 'dueDate'] ?? 'due_ms';
  return `${column} IS NULL, ${column} ${order === 'DESC' ? 'DESC' : 'ASC'}, id`;
}
