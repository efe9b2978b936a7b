// `--sandbox`: a sandbox inside this process, whose state lives in the config folder between runs.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { durableSaver, loadState } from './state-file.js';
import { Sandbox } from './server.js';

export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox', 'state.json');
}

export interface RunningSandbox {
  baseUrl: string;
  /** The state file it keeps: what makes two runs the same sandbox. */
  statePath: string;
  apiKey: string;
  sandbox: Sandbox;
  close(): Promise<void>;
}

export async function startInProcessSandbox(ctx: Pick<Context, 'configDir' | 'clock'>): Promise<RunningSandbox> {
  const statePath = sandboxStatePath(ctx.configDir);
  const apiKey = `sandbox-${randomBytes(12).toString('hex')}`;
  const saved = loadState(statePath);
  // Every write is on disk before the client hears it was accepted, as with `sandbox start --state`: a command killed
  // mid-import leaves a journal and a sandbox that agree.
  let save: () => Promise<void> = async () => undefined;
  // No body deadline: only this process holds the key, and a body without it is refused unread.
  const sandbox = new Sandbox({ key: apiKey, clock: ctx.clock, saved, persist: () => save(), bodyDeadline: false });
  save = durableSaver(statePath, () => sandbox.store.snapshot());
  // A first run saves its seed too: seeded tasks are dated from the clock and must not move between runs.
  if (!saved) await save();
  const baseUrl = await sandbox.listen(0, '127.0.0.1');
  return {
    baseUrl,
    statePath,
    apiKey,
    sandbox,
    close: () => sandbox.close(),
  };
}
