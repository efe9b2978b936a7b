// One request per domain, reported per domain: a refusal of one does not stop the others.
import type { CommandContext } from '../../cli/command-context.js';
import { writeOut } from '../../cli/render/output.js';
import { isRefusal } from '../../errors.js';

/** Runs `act` for each id, prints `id<TAB>done|failed<TAB>reason` (or JSON objects), and returns how many failed. */
export async function eachDomain(
  ctx: CommandContext,
  ids: string[],
  done: string,
  act: (id: string) => Promise<void>,
): Promise<number> {
  const results: Array<{ id: string; result: string; reason?: string }> = [];
  for (const id of ids) {
    try {
      await act(id);
      results.push({ id, result: done });
    } catch (error) {
      // Only refusals of this one domain are reported and passed over; a network or auth failure stops everything.
      if (!isRefusal(error)) throw error;
      results.push({ id, result: 'failed', reason: error.message });
    }
  }
  if (ctx.output.format === 'json') await writeOut(ctx.stdout, `${JSON.stringify(results, null, 2)}\n`);
  else for (const r of results) await writeOut(ctx.stdout, `${r.id}\t${r.result}${r.reason ? `\t${r.reason}` : ''}\n`);
  return results.filter((r) => r.result === 'failed').length;
}
