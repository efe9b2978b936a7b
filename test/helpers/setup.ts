// Run before every test file (vitest.config.ts): what the file's tests leave in the temporary folder goes with them.
import { afterAll } from 'vitest';
import { removeTempDirs } from './context.js';

afterAll(removeTempDirs);
