// What main.ts loads for every command but --version, as one module: one file for the loader to fetch, not two. The
// command groups are handed to the CLI from here: cli/ imports nothing from commands/.
export { createProcessContext } from './context.js';
export { runCli } from './cli/run.js';
export { groups } from './commands/manifest.js';
