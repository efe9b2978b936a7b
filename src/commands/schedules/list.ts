import { defineVerb } from '../../cli/verb.js';
import { writeList } from '../../cli/render/output.js';
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
  examples: ['schedules list --json'],
  async run(ctx) {
    const schedules = await listSchedules(await ctx.http());
    await writeList(
      ctx,
      schedules,
      [
        { header: 'ID', value: (s) => s.id },
        { header: 'NAME', value: (s) => s.name, key: true },
        { header: 'TIMEZONE', value: (s) => s.timezone },
        { header: 'DEFAULT', value: (s) => s.isDefault ?? false },
        { header: 'WINDOWS', value: (s) => weekLines(s).join('; '), lines: weekLines },
      ],
      { emptyMessage: 'no schedules' },
    );
  },
});
