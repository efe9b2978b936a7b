// What main.ts loads for every command but --version, as one module: one file for the loader to fetch, not two.
export { createProcessContext } from '../context.js';
export { runCli } from './run.js';
