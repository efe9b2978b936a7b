// The one guard of a destructive or paid action: go on with --yes, ask on a terminal, refuse (exit 2, nothing sent)
// where there is none to ask on. A no says that nothing was done.
import { UsageError } from '../errors.js';
import type { CommandContext } from './command-context.js';

export interface Confirmation {
  /** --yes was given. */
  yes: boolean;
  /** The question on a terminal (answered no by default). */
  question: string;
  /** Why it stops without a terminal: `refusing to ... without --yes ...`. */
  refusal: string;
  /** The hint under the refusal. */
  hint?: string;
  /** What a no says: `Nothing deleted.` */
  declined: string;
  /** What the action will do, shown on stderr before it: always when a person is asked, else unless --quiet (also
   * under --json: a script's log says what was ordered). */
  preview?: string;
}

/** Whether to go on. */
export async function confirmed(ctx: CommandContext, confirmation: Confirmation): Promise<boolean> {
  const asking = !confirmation.yes && ctx.interactive;
  if (confirmation.preview !== undefined)
    if (asking) ctx.stderr.write(`${ctx.redact(confirmation.preview)}\n`);
    else ctx.note(confirmation.preview);
  if (confirmation.yes) return true;
  if (!ctx.interactive) throw new UsageError(confirmation.refusal, confirmation.hint);
  if (await ctx.prompter.confirm({ message: confirmation.question, default: false })) return true;
  ctx.info(confirmation.declined);
  return false;
}
