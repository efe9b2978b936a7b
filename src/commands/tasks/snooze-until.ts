// When a snooze ends, as --until gives it: a duration from now (30m, 4h, 2d, 1w) or an ISO 8601 date-time with its zone
// (2026-12-01T09:00:00Z, 2026-12-01T09:00+01:00). A time without a zone is refused: which zone it meant is a guess.
import { UsageError } from '../../errors.js';

const unitMs: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const withZone = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|([+-])(\d{2}):(\d{2}))$/i;

/** The instant a zoned date-time names, or NaN when its fields name none (Date.parse takes 30 February as 2 March). */
function zonedInstant(text: string): number {
  const m = withZone.exec(text);
  if (!m) return Number.NaN;
  const at = Date.parse(text);
  const offsetMin = m[8]!.toUpperCase() === 'Z' ? 0 : (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  const wall = new Date(at + offsetMin * 60_000);
  const same =
    wall.getUTCFullYear() === Number(m[1]) &&
    wall.getUTCMonth() + 1 === Number(m[2]) &&
    wall.getUTCDate() === Number(m[3]) &&
    wall.getUTCHours() === Number(m[4]) &&
    wall.getUTCMinutes() === Number(m[5]);
  return same ? at : Number.NaN;
}

/** The instant, as an ISO string in UTC; a usage error (exit 2) naming --until otherwise. */
export function snoozeUntil(given: string, now: number): string {
  const text = given.trim();
  const duration = /^(\d{1,5})\s*([mhdw])$/i.exec(text);
  let at: number;
  if (duration) at = now + Number(duration[1]) * unitMs[duration[2]!.toLowerCase()]!;
  else if (withZone.test(text)) {
    at = zonedInstant(text);
    if (Number.isNaN(at)) throw new UsageError(`--until: "${given}" is not a real date and time`);
  } else at = Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(
      `--until: "${given}" is neither a duration nor a date-time with a zone`,
      'Examples: --until 2d, --until 4h, --until 2026-12-01T09:00:00Z, --until 2026-12-01T09:00+01:00.',
    );
  if (at <= now) throw new UsageError(`--until: ${new Date(at).toISOString()} is not in the future`);
  return new Date(at).toISOString();
}
