// Adds contacts to a sequence step in batches through the unit runner, one batch at a time so that a failure can say
// exactly which contacts went in before it. No journal: adding a contact twice changes nothing, so the whole command
// is safe to run again.
import { sequencesEndpoints } from '../api/contract/sequences.js';
import { call } from '../api/call.js';
import { formatCount } from '../format.js';
import type { JobContext } from './context.js';
import { UnitRunner } from './runner.js';

/** Contacts per request: spec.md sets no limit; 500 keeps a request small. */
export const contactsBatch = 500;

export interface AddContactsResult {
  /** The contact records the service answered with, in order. */
  added: unknown[];
}

/** Thrown on failure with how many contacts went in before it; the cause is the error of the failed batch. */
export class AddContactsFailed extends Error {
  constructor(
    readonly addedBefore: number,
    readonly total: number,
    override readonly cause: unknown,
  ) {
    super(`adding contacts failed after ${addedBefore} of ${total}`);
  }
}

export async function runAddContacts(
  ctx: JobContext,
  sequenceId: string,
  stepId: string,
  ids: string[],
): Promise<AddContactsResult> {
  const http = await ctx.http();
  const added: unknown[] = [];
  let done = 0;
  const runner = new UnitRunner<string[], unknown>(
    1,
    async (batch) =>
      (
        await call(http, sequencesEndpoints.addContacts, {
          params: { sequenceId },
          body: { stepId, contactIds: batch },
        })
      ).payload,
    {
      after(batch, payload) {
        done += batch.length;
        added.push(...(Array.isArray(payload) ? payload : [payload]));
        ctx.emit({ type: 'progress', text: `add contacts: ${formatCount(done)}/${formatCount(ids.length)} added` });
      },
    },
    ctx.signal,
  );
  try {
    for (let i = 0; i < ids.length; i += contactsBatch) await runner.submit(ids.slice(i, i + contactsBatch));
    await runner.drain();
  } catch (error) {
    throw new AddContactsFailed(done, ids.length, error);
  }
  return { added };
}
