// The task filters of spec.md as flags, shared by `tasks list` (--status ...) and `tasks bulk-skip` (--where-status ...).
import { flag } from '../../cli/flags.js';
import {
  callOutcomes,
  normaliseCallOutcome,
  taskSortFields,
  taskStatuses,
  taskTypes,
  type ListTasksQuery,
} from '../../api/contract/tasks.js';

const filterFlags = {
  status: flag.choice(taskStatuses, 'task status', { value: 'status' }),
  type: flag.choice(taskTypes, 'task type', { value: 'type' }),
  sequence: flag.text('sequence id', { value: 'id', nonEmpty: true }),
  assignee: flag.text('assignee (account) id', { value: 'id', nonEmpty: true }),
  outcome: flag.text('prospect outcome', { value: 'outcome', nonEmpty: true }),
  callOutcome: flag.choice(callOutcomes, 'call outcome, e.g. "No Answer" or no-answer', {
    value: 'outcome',
    normalise: normaliseCallOutcome,
    spellings: ' (any case, or hyphenated)',
  }),
  search: flag.text('text in the title, note, assignee or sequence', { nonEmpty: true }),
};

type FilterFlags = typeof filterFlags;
export type Filters = { [K in keyof FilterFlags]?: ReturnType<FilterFlags[K]['parse']> };
const filterNames = Object.keys(filterFlags) as Array<keyof FilterFlags>;

export { filterFlags };

/** The same filters as `--where-status` ...: for commands where plain names would be ambiguous. */
export const whereFilterFlags = Object.fromEntries(
  filterNames.map((name) => [`where${name.charAt(0).toUpperCase()}${name.slice(1)}`, filterFlags[name]]),
) as { [K in keyof FilterFlags as `where${Capitalize<K>}`]: FilterFlags[K] };

/** Reads `--where-*` options back into plain filter names. */
export function whereFilters(options: Record<string, unknown>): Filters {
  const out: Record<string, unknown> = {};
  for (const name of filterNames) {
    const value = options[`where${name.charAt(0).toUpperCase()}${name.slice(1)}`];
    if (value !== undefined) out[name] = value;
  }
  return out as Filters;
}

export const sortFlags = {
  sortBy: flag.choice(taskSortFields, 'sort field', { value: 'field' }),
  order: flag.order('sort order'),
};

export function hasFilters(filters: Filters): boolean {
  return filterNames.some((name) => filters[name] !== undefined);
}

export function toQuery(filters: Filters): ListTasksQuery {
  return {
    status: filters.status,
    taskType: filters.type,
    sequenceId: filters.sequence,
    taskAssignee: filters.assignee,
    prospectOutcome: filters.outcome,
    callOutcome: filters.callOutcome,
    search: filters.search,
  };
}
