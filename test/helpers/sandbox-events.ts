// What the test sandboxes of this test file see arrive, as events: a test acts when a request arrives, never on a timer.
// Kept apart from sandbox.ts so that run.ts does not load the sandbox into tests that start none.
import type { RequestLogEntry } from '../../src/sandbox/server.js';
import type { ScriptedSleep } from './scripted-sleep.js';

export interface SandboxRequestEvent {
  entry: RequestLogEntry;
  /** The sleeps of the sandbox that logged it (its latency): hold() keeps later answers in flight. */
  sleeps: ScriptedSleep;
}

const listeners = new Set<(event: SandboxRequestEvent) => void>();

/** Calls `listener` as each request is logged by any test sandbox, before its answer goes out; returns the unsubscribe. */
export function onSandboxRequest(listener: (event: SandboxRequestEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function sandboxRequestLogged(event: SandboxRequestEvent): void {
  for (const listener of [...listeners]) listener(event);
}
