// One status line on stderr, rewritten in place, only on a terminal and never under --quiet or machine output.
import type { CommandContext } from './command-context.js';

export interface Progress {
  /** Redraws at most every 200 ms unless forced. */
  update(text: string, force?: boolean): void;
  /** Clears the line so the next output starts clean. */
  done(): void;
}

export function createProgress(ctx: CommandContext): Progress {
  const enabled = ctx.stderrIsTTY && !ctx.output.quiet && !ctx.output.machine;
  let last = 0;
  let shown = false;
  return {
    update(text, force = false) {
      if (!enabled) return;
      const now = ctx.clock.now();
      if (!force && now - last < 200) return;
      last = now;
      shown = true;
      ctx.stderr.write(`\r\x1b[K${text.slice(0, Math.max(20, ctx.columns - 1))}`);
    },
    done() {
      if (enabled && shown) ctx.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
