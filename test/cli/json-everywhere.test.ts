// --json on every command: every verb that ends 0 under --json, run with its sample arguments against the sandbox,
// prints one JSON document on stdout (a record, a list, a job's summary, what it wrote), never nothing or text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { everyVerb, flagsOf, required } from '../helpers/verbs.js';

const verbs = await everyVerb();
const serving = new Set(['sandbox start', 'webhooks listen']);
/** Prints a shell script, which is what it is for. */
const notData = new Set(['completion']);

describe('--json on every command', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await startTestSandbox()));
  afterAll(() => sb.close());

  it('prints one JSON document wherever it ends 0', async () => {
    const notJson: string[] = [];
    let checked = 0;
    for (const { path, verb } of verbs) {
      const name = path.join(' ');
      if (serving.has(name) || notData.has(name)) continue;
      const has = (key: string) => flagsOf(verb).some(([k]) => k === key);
      const rehearse = has('dryRun') ? ['--dry-run'] : has('yes') ? ['--yes'] : [];
      const env = { ...sb.env, CI: 'true' };
      const result = await run([...path, ...required(verb), ...rehearse, '--json'], {
        env,
        configDir: tempDir(),
        cwd: tempDir(),
      });
      if (result.code !== 0) continue;
      checked++;
      try {
        JSON.parse(result.stdout);
      } catch {
        notJson.push(`${name}: ${JSON.stringify(result.stdout.slice(0, 60))}`);
      }
    }
    expect(notJson).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});
