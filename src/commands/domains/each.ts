// One request per domain, reported per domain: a refusal of one does not stop the others.
import { exitCodeForItems } from '../../cli/exit-codes.js';
import { valueResult, type VerbResult } from '../../cli/result.js';
import { isRefusal } from '../../errors.js';

interface DomainOutcome {
  id: string;
  result: string;
  reason?: string;
}

/** Runs `act` for each id; the outcomes as `id<TAB>done|failed<TAB>reason` lines (or JSON), exit 3 when some failed.
 * `said(failed)` is told to a person after them. */
export async function eachDomain(
  ids: string[],
  done: string,
  act: (id: string) => Promise<void>,
  said: (failed: number) => string | undefined = () => undefined,
): Promise<VerbResult> {
  const results: DomainOutcome[] = [];
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
  const failed = results.filter((r) => r.result === 'failed').length;
  const lines = results.map((r) => `${r.id}\t${r.result}${r.reason ? `\t${r.reason}` : ''}\n`).join('');
  return valueResult(results, lines, { said: said(failed), exitCode: exitCodeForItems(failed, ids.length) });
}
