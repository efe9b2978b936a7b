// Where a key comes from at login: a masked prompt on a terminal, or stdin with --with-key. Never argv.
import { UsageError } from '../../errors.js';
import type { CommandContext } from '../../cli/command-context.js';
import { readText } from '../../io/read-text.js';

export async function readKeyFromStdin(ctx: CommandContext): Promise<string> {
  const key = (await readText(ctx.stdin)).trim();
  if (!key) throw new UsageError('--with-key: stdin was empty', 'Example: outreach auth login --with-key < key.txt');
  if (/\s/.test(key)) throw new UsageError('--with-key: the key on stdin contains whitespace; give only the key');
  return key;
}

export async function promptForKey(ctx: CommandContext): Promise<string> {
  const key = await ctx.prompter.password({
    message: 'API key',
    validate: (value) => (value.trim() ? true : 'Paste the key from the app: Settings > API keys'),
  });
  return key.trim();
}

export async function readKey(ctx: CommandContext, withKey: boolean): Promise<string> {
  if (withKey) return readKeyFromStdin(ctx);
  if (!ctx.interactive) {
    throw new UsageError(
      'no key given and no terminal to ask on',
      'Pipe it in: outreach auth login --with-key < key.txt (or set OUTREACH_API_KEY).',
    );
  }
  return promptForKey(ctx);
}
