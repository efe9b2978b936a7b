#!/usr/bin/env node
// Bundles src/ into dist/ as ES modules split per command, so a command loads only the code it runs.
// commander requires node:child_process when it loads, for executable subcommands that outreach never uses; that
// pulls in net and dgram (~3 ms), so commander gets a proxy that loads the real module on first use.
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes('/node_modules/commander/')
        ? { path: 'lazy-child-process', namespace: 'lazy' }
        : undefined,
    );
    esbuild.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents:
        "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts'],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
  define: { OUTREACH_VERSION: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  // Bundled CommonJS dependencies call require(); ES modules have none, so give each chunk one.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  plugins: [lazyChildProcessForCommander],
});
