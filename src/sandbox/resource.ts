// What one resource of the sandbox declares, in its folder under resources/: its tables, its routes, and the seed data
// a fresh state (or a reset) lays into them. Adding a resource is its folder and one line in resources/index.ts.
import type { TableSpec } from './db/table.js';
import type { Route } from './route.js';
import type { Store } from './store.js';

export interface SandboxResource {
  tables: Array<TableSpec<never>>;
  routes: Route[];
  /** Lays the resource's seed data into its tables; resources seed in the order resources/index.ts lists them. */
  seed?(store: Store): void;
}

/** A resource as its folder declares it (tables of any record type). */
export function defineResource(resource: {
  tables?: Array<TableSpec<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each table its own type
  routes?: Route[];
  seed?(store: Store): void;
}): SandboxResource {
  return {
    tables: (resource.tables ?? []) as Array<TableSpec<never>>,
    routes: resource.routes ?? [],
    seed: resource.seed,
  };
}
