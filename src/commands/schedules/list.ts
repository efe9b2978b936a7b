import { defineVerb } from '../../cli/verb.js';
import { writeList } from '../../cli/render/output.js';
import { listSchedules } from '../../api/resources/schedules.js';
import { dayNames, formatWindows, type Window } from '../../schedule/week.js';

export default defineVerb({
  examples: ['schedules list --json'],
  async run(ctx) {
    const schedules = await listSchedules(await ctx.http());
    await writeList(
      ctx,
      schedules,
      [
        { header: 'ID', value: (s) => s.id },
        { header: 'NAME', value: (s) => s.name },
        { header: 'TIMEZONE', value: (s) => s.timezone },
        { header: 'DEFAULT', value: (s) => s.isDefault ?? false },
        {
          header: 'WINDOWS',
          value: (s) =>
            (s.timeSlots ?? [])
              .filter((d) => d.slots.length)
              .map((d) => `${dayNames[d.day]?.slice(0, 3)} ${formatWindows(d.slots as Window[])}`)
              .join('; '),
        },
      ],
      { emptyMessage: 'no schedules' },
    );
  },
});
