import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

// The bundle has the version written in at build time (scripts/build.mjs), so help and --version read no file;
// run from source (tests), package.json is read.
declare const OUTREACH_VERSION: string | undefined;

/** The version in package.json. */
export function packageVersion(): string {
  if (typeof OUTREACH_VERSION === 'string') return OUTREACH_VERSION;
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
