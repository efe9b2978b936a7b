// sequences import: the prospects import's job sent to the sequence-scoped endpoint, the step required.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-seq-import-');
  writeFileSync(join(dir, 'leads.csv'), 'Email,First Name\nann@seq.example,Ann\nbo@seq.example,Bo\n');
});
afterEach(() => sb.close());

const sequences = (argv: string[]) => run(['sequences', ...argv], { env: sb.env, cwd: dir });
const posts = (path: string) => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === path);

describe('sequences import', () => {
  it('imports into the step through the sequence-scoped endpoint, and waits as prospects import does', async () => {
    const result = await sequences(['import', 'leads.csv', '--step', 'stA1intro', '--wait', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 2, sent: 2, succeeded: 2, failed: 0 });
    expect(posts('/v1/sequences/prospects/import-with-field-name')).toHaveLength(1);
    expect(posts('/v1/prospects/import-with-field-name')).toHaveLength(0);
    expect(prospectByEmail(sb, 'ann@seq.example')?.sequences).toEqual([
      { sequenceId: 'sqOnbrd1', stepId: 'stA1intro', state: 'active' },
    ]);
  });

  it('gives up at --wait-timeout with a line that resumes this very import, its --step and all', async () => {
    const result = await sequences(['import', 'leads.csv', '--step', 'stA1intro', '--wait', '--wait-timeout', '0.6']);
    expect(result.code).toBe(1);
    const hint = result.stderr.split('\n').find((line) => line.startsWith('hint: '));
    expect(hint).toBe(
      'hint: It goes on at the service. Check later with: ' +
        'outreach sequences import leads.csv --step stA1intro --wait-timeout 0.6 --resume --wait',
    );
    expect(result.stderr).toContain(
      'To continue: outreach sequences import leads.csv --step stA1intro --wait --wait-timeout 0.6 --resume\n',
    );
  });

  it('needs --step (exit 2) and takes no --sync; an unknown step is the service refusing the chunk', async () => {
    const missing = await sequences(['import', 'leads.csv']);
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([2, 'error: --step is required']);
    const sync = await sequences(['import', 'leads.csv', '--step', 'stA1intro', '--sync']);
    expect(sync.code).toBe(2);
    expect(sync.stderr.split('\n')[0]).toMatch(/^error: unknown option '--sync'/);
    const unknown = await sequences(['import', 'leads.csv', '--step', 'stNope', '--no-wait']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Step stNope does not exist');
    expect(posts('/v1/sequences/prospects/import-with-field-name')).toHaveLength(1);
  });

  it('keeps a journal that records the endpoint: prospects import --resume of it is refused', async () => {
    const first = await sequences(['import', 'leads.csv', '--step', 'stA1intro', '--no-wait', '--chunk-size', '1']);
    expect(first.code).toBe(0);
    const resumed = await run(
      ['prospects', 'import', 'leads.csv', '--step', 'stA1intro', '--chunk-size', '1', '--resume', '--no-wait'],
      {
        env: sb.env,
        cwd: dir,
      },
    );
    expect(resumed.code).toBe(2);
    expect(resumed.stderr.split('\n')[0]).toBe(
      'error: --resume: the flags or the column mapping differ from the run recorded in the journal ' +
        '(here: sequences import vs prospects import)',
    );
  });
});
