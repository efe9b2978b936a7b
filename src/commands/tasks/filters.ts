// The task filters of spec.md as flags, shared by `tasks list` (--status ...) and `tasks bulk-skip` (--where-status ...).
import type { Command } from 'commander';
import { z } from 'zod';
import {
  callOutcomes,
  normaliseCallOutcome,
  sortOrders,
  taskSortFields,
  taskStatuses,
  taskTypes,
  type ListTasksQuery,
} from '../../api/contract/tasks.js';

const oneOf = <T extends readonly [string, ...string[]]>(values: T, flag: string) =>
  z.enum(values, { error: `${flag} takes one of: ${values.join(', ')}` });

const outcome = (flag: string) =>
  z
    .string()
    .refine((v) => normaliseCallOutcome(v) !== undefined, {
      message: `${flag} takes one of: ${callOutcomes.join(', ')} (any case, or hyphenated)`,
    })
    .transform((v) => normaliseCallOutcome(v)!);

const filterNames = ['status', 'type', 'sequence', 'assignee', 'outcome', 'callOutcome', 'search'] as const;

/** Adds the filter flags, optionally with a prefix: `--where-status`. */
export function addFilterOptions(cmd: Command, prefix = ''): void {
  const p = prefix ? `${prefix}-` : '';
  cmd
    .option(`--${p}status <status>`, `task status: ${taskStatuses.join(', ')}`)
    .option(`--${p}type <type>`, `task type: ${taskTypes.join(', ')}`)
    .option(`--${p}sequence <id>`, 'sequence id')
    .option(`--${p}assignee <id>`, 'assignee (account) id')
    .option(`--${p}outcome <outcome>`, 'prospect outcome')
    .option(`--${p}call-outcome <outcome>`, 'call outcome, e.g. "No Answer" or no-answer')
    .option(`--${p}search <text>`, 'text in the title, note, assignee or sequence');
}

export function filterSchema(prefix = '') {
  const p = prefix ? `--${prefix}-` : '--';
  return {
    status: oneOf(taskStatuses, `${p}status`).optional(),
    type: oneOf(taskTypes, `${p}type`).optional(),
    sequence: z.string().min(1).optional(),
    assignee: z.string().min(1).optional(),
    outcome: z.string().min(1).optional(),
    callOutcome: outcome(`${p}call-outcome`).optional(),
    search: z.string().min(1).optional(),
  };
}

export const sortSchema = {
  sortBy: oneOf(taskSortFields, '--sort-by').optional(),
  order: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(oneOf(sortOrders, '--order'))
    .optional(),
};

export type Filters = { [K in (typeof filterNames)[number]]?: string };

/** Reads prefixed flags (`whereStatus`) back into plain filter names. */
export function unprefix(options: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of filterNames) {
    const key = prefix + name.charAt(0).toUpperCase() + name.slice(1);
    if (options[key] !== undefined) out[name] = options[key];
  }
  return out;
}

export function hasFilters(filters: Filters): boolean {
  return filterNames.some((name) => filters[name] !== undefined);
}

export function toQuery(filters: Filters): ListTasksQuery {
  return {
    status: filters.status as ListTasksQuery['status'],
    taskType: filters.type as ListTasksQuery['taskType'],
    sequenceId: filters.sequence,
    taskAssignee: filters.assignee,
    prospectOutcome: filters.outcome,
    callOutcome: filters.callOutcome,
    search: filters.search,
  };
}
