#!/usr/bin/env node
// Bundles src/ into dist/ as ES modules split per command, so a command loads only the code it runs.
// commander requires node:child_process when it loads, for executable subcommands that outreach never uses; that
// pulls in net and dgram (~3 ms), so commander gets a proxy that loads the real module on first use.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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

// Importing a Node built-in as an ES module builds a namespace of all its exports, which runs every lazy getter:
// `import { readFileSync } from 'node:fs'` loads the whole streams stack (~2 ms) for fs.ReadStream. The bundle takes
// built-ins with require() instead, which reads only the names the code uses. Each statement is rewritten to one no
// longer, padded with spaces to the same length, so the source maps stay exact.
function builtinImportsToRequire(code) {
  const sameLength = (original, replacement) => {
    if (replacement.length > original.length) throw new Error(`cannot rewrite ${original} in place`);
    return replacement.padEnd(original.length, ' ');
  };
  return code
    .replace(/import\s*(?:\*\s*as\s+|\s)([\w$]+)\s+from\s*"(node:[\w/]+)";/g, (all, name, id) =>
      sameLength(all, `let ${name}=__r("${id}");`),
    )
    .replace(/import\s*\{([^}]*)\}\s*from\s*"(node:[\w/]+)";/g, (all, names, id) =>
      sameLength(all, `let{${names.replace(/\s+as\s+/g, ':')}}=__r("${id}");`),
    );
}

const builtinRequire =
  'const __r=(id)=>{const m=process.getBuiltinModule(id);if(m)return m;' +
  "throw Object.assign(new Error(`Cannot find module '${id}'`),{code:'MODULE_NOT_FOUND'})},require=__r;";

rmSync('dist', { recursive: true, force: true });
const result = await build({
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
  // Bundled CommonJS dependencies call require() for Node built-ins only; ES modules have none, so each chunk gets
  // one. process.getBuiltinModule, not createRequire: importing node:module as an ES module costs ~1.5 ms.
  banner: { js: builtinRequire },
  plugins: [lazyChildProcessForCommander],
  // jq-wasm reads its .wasm from beside its own file: it stays in node_modules (a dependency) and loads from there.
  external: ['jq-wasm', 'better-sqlite3'],
  write: false,
});
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  writeFileSync(file.path, file.path.endsWith('.js') ? builtinImportsToRequire(file.text) : file.contents);
}
