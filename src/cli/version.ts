import { readFileSync } from 'node:fs';

/** The version in package.json (dist/cli/version.js and src/cli/version.ts both sit two levels below it). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
