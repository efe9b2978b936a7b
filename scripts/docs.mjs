#!/usr/bin/env node
// `npm run docs`: writes docs/commands.md, man/outreach.1 and docs/agents.md from the command definitions (src/commands/reference.ts),
// bundled here on the fly so the CLI's own bundle carries none of it. `--check` writes nothing and exits 1 when
// either file is stale.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// Inside the project, so the bundle's imports of packages resolve to node_modules.
mkdirSync('node_modules/.cache', { recursive: true });
const dir = mkdtempSync('node_modules/.cache/outreach-docs-');
try {
  const outfile = join(dir, 'docs.mjs');
  await build({
    entryPoints: ['src/commands/reference.ts'],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    packages: 'external',
    logLevel: 'warning',
  });
  const { renderReference } = await import(pathToFileURL(resolve(outfile)).href);
  const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
  const { markdown, man, agents } = await renderReference(version);
  const files = [
    ['docs/commands.md', markdown],
    ['man/outreach.1', man],
    ['docs/agents.md', agents],
  ];
  if (process.argv.includes('--check')) {
    const stale = files.filter(([path, text]) => {
      try {
        return readFileSync(path, 'utf8') !== text;
      } catch {
        return true;
      }
    });
    for (const [path] of stale) console.error(`${path} is stale: run npm run docs`);
    process.exitCode = stale.length ? 1 : 0;
  } else {
    mkdirSync('man', { recursive: true });
    for (const [path, text] of files) writeFileSync(path, text);
    console.log(`wrote ${files.map(([path]) => path).join(' and ')}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
