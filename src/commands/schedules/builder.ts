// The interactive schedule builder: name, zone (type to search), each weekday's windows with "same as the previous
// day" one key away, default or not, a week preview, and a confirmation. Prompts read ctx.stdin and draw on stderr.
import type { CommandContext } from '../../cli/command-context.js';
import { renderTable } from '../../cli/render/table.js';
import {
  buildBody,
  dayNames,
  formatWindows,
  isTimeZone,
  parseWindows,
  WindowError,
  type Window,
} from '../../schedule/week.js';
import { weekPreview } from '../../schedule/preview.js';
import type { ScheduleBody } from '../../api/contract/schedules.js';

/** Zones Intl lists, plus the common ones it leaves out. */
function zoneList(): string[] {
  const listed = (Intl as unknown as { supportedValuesOf(key: string): string[] }).supportedValuesOf('timeZone');
  return [...new Set([...listed, 'UTC', 'Asia/Kolkata', 'Europe/Kyiv'])].sort();
}

export function localZone(ctx: Pick<CommandContext, 'env'>): string {
  return ctx.env.TZ && isTimeZone(ctx.env.TZ) ? ctx.env.TZ : Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `preset.isDefault` (from --default) answers that question ahead. */
export async function buildInteractively(
  ctx: CommandContext,
  preset: { isDefault?: boolean },
): Promise<ScheduleBody | undefined> {
  const { input, search, select, confirm } = ctx.prompter;
  const local = localZone(ctx);
  const zones = zoneList();

  const name = await input({
    message: 'Schedule name',
    validate: (v) => (v.trim() ? true : 'Give the schedule a name'),
  });
  const timezone = await search({
    message: `Time zone (type to search; Enter on empty keeps ${local})`,
    source: (term) => {
      const found = term
        ? zones.filter((z) => z.toLowerCase().includes(term.toLowerCase()))
        : [local, ...zones.filter((z) => z !== local)];
      return found.slice(0, 50).map((z) => ({ value: z, name: z }));
    },
  });

  const week: Window[][] = [];
  for (let day = 0; day < 7; day++) {
    const dayName = dayNames[day]!;
    if (day > 0) {
      const previous = formatWindows(week[day - 1]!);
      const choice = await select({
        message: `${dayName}`,
        choices: [
          { value: 'same', name: `same as ${dayNames[day - 1]} (${previous})` },
          { value: 'type', name: 'type windows' },
          { value: 'off', name: 'off' },
        ],
      });
      if (choice === 'same') {
        week.push(week[day - 1]!.map((w) => ({ ...w })));
        continue;
      }
      if (choice === 'off') {
        week.push([]);
        continue;
      }
    }
    const text = await input({
      message: `${dayName} windows (like 09:00-12:00, 13:30-17:00, or off)`,
      default: day === 0 ? 'off' : undefined,
      validate: (value) => {
        try {
          parseWindows(value, dayName);
          return true;
        } catch (error) {
          if (error instanceof WindowError) return error.message;
          throw error;
        }
      },
    });
    week.push(parseWindows(text, dayName));
  }
  const isDefault =
    preset.isDefault ?? (await confirm({ message: 'Make it the default schedule for new sequences?', default: false }));

  const rows = weekPreview(week, timezone, local, ctx.clock.now());
  ctx.stderr.write(
    `\n${await renderTable(
      ['DAY', timezone, `${local} (local)`],
      rows.map((r) => [r.day, r.schedule, r.local]),
      { keys: [true, false, false], wraps: [], width: undefined, color: ctx.stderrIsTTY && !ctx.env.NO_COLOR },
    )}\n`,
  );
  if (!(await confirm({ message: 'Create this schedule?', default: true }))) return undefined;
  return buildBody(name.trim(), timezone, week, isDefault);
}
