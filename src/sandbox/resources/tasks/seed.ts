// The tasks a fresh sandbox starts with, laid out around the clock so that upcoming, due-today and overdue tasks
// exist whenever the sandbox is reset.
import { callOutcomes } from '../../../api/contract/tasks.js';
import { seededRandom } from '../../prng.js';
import { seedData } from '../../seed-data.js';
import type { TaskRecord } from '../../model.js';
import type { Store } from '../../store.js';
import type { AccountSeed } from '../account/index.js';
import { sequencesTable } from '../sequences/table.js';

const dayMs = 86_400_000;
const titleVerbs: Record<TaskRecord['type'], string> = {
  call: 'Call',
  linkedin: 'Connect on LinkedIn with',
  whatsapp: 'WhatsApp',
  custom: 'Follow up with',
};
const taskTypes: TaskRecord['type'][] = ['call', 'linkedin', 'whatsapp', 'custom'];
const priorities: TaskRecord['priority'][] = ['urgent', 'high', 'medium', 'low'];
const prospectOutcomes = ['Interested', 'Not Interested', 'Meeting Booked', 'Out Of Office', 'Not Now', ''];
const people = [
  'Ada Lovelace',
  'Grace Hopper',
  'Linus Torvalds',
  'Margaret Hamilton',
  'Alan Turing',
  'Barbara Liskov',
  'Ken Thompson',
  'Radia Perlman',
];

export const defaultTaskCount = 300;

/**
 * 300 tasks by default: 130 overdue, 40 due today, 80 upcoming, 30 completed, 20 skipped; every type and assignee.
 * Other counts keep the shares.
 */
export function seedTasks(store: Store): TaskRecord[] {
  const now = store.now();
  const count = store.settings.seed.tasks ?? defaultTaskCount;
  const { assignees } = seedData<AccountSeed>('account');
  const sequences = store.table(sequencesTable).all();
  const random = seededRandom(20261122);
  const startOfToday = Math.floor(now / dayMs) * dayMs;
  const shares: Array<[number, 'overdue' | 'dueToday' | 'upcoming' | 'completed' | 'skipped']> = [
    [130, 'overdue'],
    [40, 'dueToday'],
    [80, 'upcoming'],
    [30, 'completed'],
    [20, 'skipped'],
  ];
  const plan = shares.map(([share, kind], i): [number, (typeof shares)[number][1]] => [
    i === 0 ? 0 : Math.round((share * count) / defaultTaskCount),
    kind,
  ]);
  plan[0]![0] = count - plan.reduce((n, [c]) => n + c, 0);
  const tasks: TaskRecord[] = [];
  for (const [count, kind] of plan) {
    for (let i = 0; i < count; i++) {
      const n = tasks.length;
      const type = taskTypes[n % taskTypes.length]!;
      const sequence = sequences[n % sequences.length]!;
      const step = sequence.steps[n % sequence.steps.length]!;
      const person = people[n % people.length]!;
      let due: number;
      if (kind === 'overdue' || kind === 'completed' || kind === 'skipped')
        due = startOfToday - (1 + Math.floor(random() * 30)) * dayMs + Math.floor(random() * dayMs);
      else if (kind === 'dueToday') due = startOfToday + Math.floor(random() * (dayMs - 1));
      else due = startOfToday + (1 + Math.floor(random() * 14)) * dayMs + Math.floor(random() * dayMs);
      const task: TaskRecord = {
        taskId: `tk${String(n + 1).padStart(count > 999_999 ? 8 : 6, '0')}`,
        type,
        title: `${titleVerbs[type]} ${person}`,
        dueDate: new Date(due).toISOString(),
        taskAssignee: assignees[n % assignees.length]!,
        note: n % 3 === 0 ? 'Mention the Q4 pricing' : '',
        priority: priorities[Math.floor(random() * priorities.length)]!,
        sequence: {
          id: sequence.id,
          name: sequence.name,
          stepId: step.id,
          stepNumber: step.number,
          prospectOutcome: prospectOutcomes[n % prospectOutcomes.length]!,
        },
      };
      if (kind === 'completed') {
        task.doneStatus = 'completed';
        task.completedAt = new Date(due + 3_600_000).toISOString();
        if (type === 'call') task.callOutcome = callOutcomes[Math.floor(n / taskTypes.length) % callOutcomes.length];
      } else if (kind === 'skipped') {
        task.doneStatus = 'skipped';
        task.skippedAt = new Date(due + 7_200_000).toISOString();
      }
      tasks.push(task);
    }
  }
  return tasks;
}
