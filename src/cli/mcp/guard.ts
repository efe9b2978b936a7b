// The two-call guard of destructive and paid tools. The first call returns a preview and a token; only a second call
// with the same arguments and that token acts. The token is an HMAC, under a key this server drew at start, of the
// tool, its arguments, what the preview showed and when it ends: the client can neither make one nor move one to
// other arguments, and one preview's token does not act on a selection that has changed since.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a preview's token stays good. */
export const confirmTtlMs = 10 * 60_000;

export interface Confirmation {
  token: string;
  expiresAt: string;
}

/** Arguments in one canonical order, so the same call always signs the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export class Guard {
  private readonly key = randomBytes(32);
  /** Tokens that have acted, until they expire: a token acts once. */
  private readonly spent = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  private sign(tool: string, args: Record<string, unknown>, preview: string, until: number, nonce: string): string {
    const { confirm: _confirm, ...rest } = args;
    return createHmac('sha256', this.key)
      .update(`${tool}\n${canonical(rest)}\n${preview}\n${until}\n${nonce}`)
      .digest('base64url');
  }

  mint(tool: string, args: Record<string, unknown>, preview: string): Confirmation {
    const until = this.now() + confirmTtlMs;
    const nonce = randomBytes(9).toString('base64url');
    const token = `${until}.${nonce}.${this.sign(tool, args, preview, until, nonce)}`;
    return { token, expiresAt: new Date(until).toISOString() };
  }

  /** Why the token does not let this call act, or undefined when it does; `spend` uses it up (a token acts once). */
  redeem(
    tool: string,
    args: Record<string, unknown>,
    preview: string,
    token: string,
    spend = true,
  ): string | undefined {
    const match = /^(\d{1,15})\.([\w-]{12})\.([\w-]{43})$/.exec(token);
    if (!match) return 'the confirm token is not one this server gave';
    const until = Number(match[1]);
    const expected = Buffer.from(this.sign(tool, args, preview, until, match[2]!));
    if (!timingSafeEqual(expected, Buffer.from(match[3]!)))
      return 'the confirm token is for other arguments, or what they select has changed since its preview';
    if (this.now() > until) return 'the confirm token has expired';
    for (const [spent, end] of this.spent) if (end < this.now()) this.spent.delete(spent);
    if (this.spent.has(token)) return 'the confirm token has been used: a token acts once';
    if (spend) this.spent.set(token, until);
    return undefined;
  }
}
