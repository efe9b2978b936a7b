// Prints vitest's result as one plain closing line ("N passed, N failed"), which CI reads whatever the runner.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(new URL('../.vitest-report.json', import.meta.url), 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`${report.numPassedTests} passed, ${report.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = report.numFailedTests || !report.numTotalTests ? 1 : 0;
