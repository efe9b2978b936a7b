import { jsonResult, listResult } from '../../cli/result.js';
import { defineVerb } from '../../cli/verb.js';
import type { Column } from '../../cli/render/columns.js';
import type { RateLimitWindow } from '../../api/contract/people.js';
import { resetAtMs } from '../../api/resources/people.js';
import { peopleEndpoints } from '../../api/contract/people.js';
import { call } from '../../api/call.js';
import { clockTime, formatDuration } from '../../format.js';

type Row = RateLimitWindow & { window: string };

function columns(now: number): Column<Row>[] {
  return [
    { header: 'WINDOW', value: (r) => r.window },
    { header: 'LIMIT', value: (r) => r.limit },
    { header: 'REMAINING', value: (r) => r.remaining },
    { header: 'RESETS', value: (r) => clockTime(resetAtMs(r.resetAt)) },
    { header: 'IN', value: (r) => formatDuration(Math.max(0, resetAtMs(r.resetAt) - now)) },
  ];
}

export default defineVerb({
  agent: { kind: 'read' },
  description:
    'Starts of `enrich contacts` count against each window; it waits for a reset by itself.\n' +
    'Reset times are local. --json (and --ndjson) print the answer as the service sent it: {perMinute, perHour,\n' +
    'perDay}, each {limit, remaining, resetAt} (Unix seconds), with any other field it holds.',
  examples: ['enrich rate-limits', 'enrich rate-limits --json'],
  async run(ctx) {
    const limits = (await call(await ctx.http(), peopleEndpoints.rateLimits)).payload;
    // One record from the service: printed whole, not cut into the table's rows.
    const { format } = ctx.output;
    if (format === 'json' || format === 'ndjson') return jsonResult(limits);
    const rows: Row[] = [
      { window: 'minute', ...limits.perMinute },
      { window: 'hour', ...limits.perHour },
      { window: 'day', ...limits.perDay },
    ];
    return listResult(rows, columns(ctx.clock.now()));
  },
});
