import { listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import { listSchedules } from '../../api/resources/schedules.js';
import type { ScheduleRecord as Schedule } from '../../api/contract/schedules.js';
import { dayNames, formatWindows, type Window } from '../../schedule/week.js';

/** One line a day that has sending windows: "Mon 09:00-12:00, 13:00-17:00". */
function weekLines(schedule: Schedule): string[] {
  return (schedule.timeSlots ?? [])
    .filter((d) => d.slots.length)
    .map((d) => `${dayNames[d.day]?.slice(0, 3)} ${formatWindows(d.slots as Window[])}`);
}

export default defineVerb({
  agent: { kind: 'read' },
  description: '--json prints the schedules as the service sent them.',
  examples: ['schedules list --json'],
  async run(ctx) {
    const rows = await listSchedules(await ctx.http());
    return listResult(
      rows,
      [
        { header: 'ID', value: (r) => r.schedule.id },
        { header: 'NAME', value: (r) => r.schedule.name, key: true },
        { header: 'TIMEZONE', value: (r) => r.schedule.timezone },
        { header: 'DEFAULT', value: (r) => r.schedule.isDefault ?? false, drop: 1 },
        { header: 'WINDOWS', value: (r) => weekLines(r.schedule).join('; '), lines: (r) => weekLines(r.schedule) },
      ],
      { emptyMessage: 'no schedules', raw: (r) => r.sent },
    );
  },
});
