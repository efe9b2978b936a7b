// What main.ts loads for every command but --version, as one module: one file for the loader to fetch, not three
// (three dynamic imports cost 4-6 ms more a start). The command groups are handed to the CLI from here, above it:
// cli/ imports nothing from commands/.
export { createProcessContext } from '../context.js';
export { runCli } from '../cli/run.js';
export { groups } from './manifest.js';
