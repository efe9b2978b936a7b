// The demo data files a fresh sandbox starts from (fixtures/seed/*.json), read by each resource's seed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import type { TableSpec } from './db/table.js';
import type { Store } from './store.js';

export function seedData<T>(name: string): T {
  return JSON.parse(readFileSync(join(packageRoot(), 'fixtures', 'seed', `${name}.json`), 'utf8')) as T;
}

/** A resource's seed that is its data file as it is: each record a row of `spec`'s table. */
export function seedTable<T>(spec: TableSpec<T>, name: string): (store: Store) => void {
  return (store) => {
    const table = store.table(spec);
    for (const record of seedData<T[]>(name)) table.put(record);
  };
}
