// Tests never wait on the wall clock: a test that sleeps 100 ms for something to happen fails on a busy machine, and
// one that sleeps longer is slow everywhere. Inject the clock and sleeps (the Context, the sandbox's clock, ScriptedSleep)
// and wait for events (output seen, a request logged, a delivery arrived). This guard finds timers of 10 ms or more
// written as literals anywhere under test/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('.', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** setTimeout or setInterval whose last argument is a number literal of two digits or more (one level of nested
 * parentheses, as in an arrow function, is looked into). */
const timedCall = /\bset(?:Timeout|Interval)\s*\((?:[^()]|\([^()]*\))*?,\s*\d[\d_]*\d\s*\)/g;

describe('tests wait for events, not for time', () => {
  it('the guard finds a literal timer', () => {
    const call = ['set', 'Timeout(() => done(), 1', '50)'].join('');
    expect(call.match(timedCall)).toEqual([call]);
    expect(`set${'Interval'}(tick, 5)`.match(timedCall)).toBeNull();
  });

  it('no test file calls setTimeout or setInterval with a literal delay of 10 ms or more', () => {
    const found = sources(root).flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(timedCall)].map((m) => `${relative(root, path)}: ${m[0]}`),
    );
    expect(found).toEqual([]);
  });
});
