// When a snooze ends, as --until gives it: a duration from now (30m, 4h, 2d, 1w) or an ISO 8601 date-time with its zone
// (2026-12-01T09:00:00Z, 2026-12-01T09:00+01:00). A time without a zone is refused: which zone it meant is a guess.
import { UsageError } from '../../errors.js';

const unitMs: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const withZone = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The instant, as an ISO string in UTC; a usage error (exit 2) naming --until otherwise. */
export function snoozeUntil(given: string, now: number): string {
  const text = given.trim();
  const duration = /^(\d{1,5})\s*([mhdw])$/i.exec(text);
  let at: number;
  if (duration) at = now + Number(duration[1]) * unitMs[duration[2]!.toLowerCase()]!;
  else if (withZone.test(text)) at = Date.parse(text);
  else at = Number.NaN;
  if (Number.isNaN(at))
    throw new UsageError(
      `--until: "${given}" is neither a duration nor a date-time with a zone`,
      'Examples: --until 2d, --until 4h, --until 2026-12-01T09:00:00Z, --until 2026-12-01T09:00+01:00.',
    );
  if (at <= now) throw new UsageError(`--until: ${new Date(at).toISOString()} is not in the future`);
  return new Date(at).toISOString();
}
