// Prints vitest's result as one plain closing line ("N passed, N failed"), which CI reads whatever the runner, and
// fails the run if a test left a job's files in the repository (tests work in folders of their own).
import { readdirSync, readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../.vitest-report.json', import.meta.url), 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
const strays = readdirSync(new URL('..', import.meta.url)).filter((name) =>
  /\.(journal|failed\.csv|results\.csv)$/.test(name),
);
if (strays.length) console.log(`tests left job files in the repository: ${strays.join(', ')}`);
process.exitCode = report.numFailedTests || !report.numTotalTests || strays.length ? 1 : 0;
