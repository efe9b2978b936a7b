// The demo data files a fresh sandbox starts from (fixtures/seed/*.json), read by each resource's seed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

export function seedData<T>(name: string): T {
  return JSON.parse(readFileSync(join(packageRoot(), 'fixtures', 'seed', `${name}.json`), 'utf8')) as T;
}
