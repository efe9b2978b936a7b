// `--sandbox`: a sandbox inside this process, whose state lives in the config folder between runs.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Context } from '../context.js';
import type { Sandbox } from './server.js';

/** The database `--sandbox` keeps its state in (state.json, of versions before it, is imported on first use). */
export function sandboxStatePath(configDir: string): string {
  return join(configDir, 'sandbox', 'state.db');
}

/** Where `--sandbox` kept its state before the database: imported on first use, then kept as state.json.bak. */
export function legacySandboxStatePath(configDir: string): string {
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
  const [{ openSandboxDb }, { Sandbox }] = await Promise.all([import('./open-state.js'), import('./server.js')]);
  // Every write is committed before the client hears it was accepted, as with `sandbox start --state`: a command
  // killed mid-import leaves a journal and a sandbox that agree; commands side by side take turns at the database.
  const db = openSandboxDb(statePath, legacySandboxStatePath(ctx.configDir));
  // No body deadline: only this process holds the key, and a body without it is refused unread.
  let sandbox: Sandbox;
  try {
    sandbox = new Sandbox({ key: apiKey, clock: ctx.clock, bodyDeadline: false, db });
  } catch (error) {
    db.close();
    throw error;
  }
  let baseUrl: string;
  try {
    baseUrl = await sandbox.listen(0, '127.0.0.1');
  } catch (error) {
    db.close();
    throw error;
  }
  return {
    baseUrl,
    statePath,
    apiKey,
    sandbox,
    close: async () => {
      await sandbox.close();
      db.close();
    },
  };
}
