// A sandbox whose state lives in a database shared with other processes (state-db.ts).
import { Sandbox, type SandboxOptions } from './server.js';
import type { StateDb } from './state-db.js';

/**
 * A sandbox whose state is the database: loaded (or seeded and saved, in the same transaction, so two processes
 * starting on a fresh state agree on one seed), then each request in a transaction of its own (server.ts). `adjust`
 * changes the state before the first request (a setting of `sandbox start`) and is saved with it.
 */
export function sandboxOnDatabase(
  db: StateDb,
  options: Omit<SandboxOptions, 'saved' | 'persist' | 'database'>,
  adjust?: (sandbox: Sandbox) => boolean,
): Sandbox {
  return db.transaction(() => {
    const saved = db.load();
    const sandbox: Sandbox = new Sandbox({
      ...options,
      saved,
      database: db,
      persist: async () => db.save(sandbox.store.snapshot()),
    });
    const adjusted = adjust?.(sandbox) ?? false;
    if (!saved || adjusted) db.save(sandbox.store.snapshot());
    return sandbox;
  });
}
