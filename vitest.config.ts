import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The version is written into the code, as scripts/build.mjs does for the bundle.
  define: { OUTREACH_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Tables show dates in local time: every machine renders them as the golden files do.
    env: { TZ: 'UTC' },
  },
});
