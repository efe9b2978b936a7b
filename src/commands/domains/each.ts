// One request per domain, reported per domain: a refusal of one does not stop the others.
import { exitCodeForItems } from '../../cli/exit-codes.js';
import { valueResult, type VerbResult } from '../../cli/result.js';
import { isRefusal, NotFound } from '../../errors.js';
import type { HttpClient } from '../../api/http.js';
import { call } from '../../api/call.js';
import { domainsEndpoints } from '../../api/contract/domains.js';

interface DomainOutcome {
  id: string;
  result: string;
  reason?: string;
}

/** The account's domains by id, once every id given is among them; an unknown one stops the command before anything is
 * sent (exit 2, as every unknown id does). */
export async function knownDomains(http: HttpClient, ids: string[]) {
  const known = new Map((await call(http, domainsEndpoints.list, { query: {} })).items.map((d) => [d.id, d]));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length)
    throw new NotFound(
      `no domain ${unknown.join(', ')}`,
      'Nothing was sent. See the ids with `outreach domains list`.',
    );
  return known;
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
  return valueResult(results, lines, {
    said: said(failed),
    exitCode: exitCodeForItems(failed, ids.length),
    ...(failed && {
      failing: `${failed} of ${ids.length} domain(s) not ${done}: the service refused them`,
      hint: 'The lines marked failed say why; see the states with `outreach domains list`.',
    }),
  });
}
