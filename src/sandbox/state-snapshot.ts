// The prospects of a sandbox state live in a file of their own, read only when a command needs them: after a
// million imported rows, `--sandbox inbox categories` would otherwise read and parse ~400 MB of JSON every time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProspectRecord, SandboxState } from './model.js';

/** States whose prospects are still on disk, unread. */
const unread = new WeakSet<object>();

/** Makes `state.prospects` read `file` (in `dir`) on first use. */
export function readProspectsLazily(state: SandboxState, dir: string, file: string): void {
  let prospects: ProspectRecord[] | undefined;
  unread.add(state);
  Object.defineProperty(state, 'prospects', {
    enumerable: true,
    configurable: true,
    get() {
      if (!prospects) {
        prospects = JSON.parse(readFileSync(join(dir, file), 'utf8')) as ProspectRecord[];
        unread.delete(state);
      }
      return prospects;
    },
    set(value: ProspectRecord[]) {
      prospects = value;
      unread.delete(state);
    },
  });
}

export interface StateSnapshot {
  /** Everything but the prospects, as JSON. */
  main: Record<string, unknown>;
  /** The prospects as JSON, when they were read (and so may have changed). */
  prospects?: string;
}

export function snapshotOf(state: SandboxState): StateSnapshot {
  const main: Record<string, unknown> = {};
  for (const key of Object.keys(state)) if (key !== 'prospects') main[key] = state[key as keyof SandboxState];
  return unread.has(state) ? { main } : { main, prospects: JSON.stringify(state.prospects) };
}
