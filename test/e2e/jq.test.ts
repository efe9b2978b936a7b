// --jq EXPR through the real CLI: jq's own output (as `| jq -r EXPR`), without jq installed; a bad expression is
// refused before the command sends anything.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin } from '../helpers/spawn.js';

describe('--jq', () => {
  const env = cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() });
  const sandbox = (argv: string[]) => runBin(['--sandbox', ...argv], { env });

  it('prints strings raw and other values as jq prints them', async () => {
    const all = JSON.parse((await sandbox(['inbox', 'categories', '--json'])).stdout) as Array<{ key: string }>;
    const keys = await sandbox(['inbox', 'categories', '--jq', '.[] | .key']);
    expect({ code: keys.code, stderr: keys.stderr }).toEqual({ code: 0, stderr: '' });
    expect(keys.stdout).toBe(all.map((c) => `${c.key}\n`).join(''));
    const first = await sandbox(['inbox', 'categories', '--jq', '.[0] | {key, name}']);
    expect(first.stdout).toBe('{\n  "key": "uncategorized",\n  "name": "Uncategorized"\n}\n');
    const tsv = await sandbox(['inbox', 'categories', '--jq', '.[:2][] | [.key, .isDefault] | @tsv']);
    expect(tsv.stdout).toBe('uncategorized\ttrue\ninterested\ttrue\n');
    // Whitespace at the edges of the output is jq's own: a leading tab of @tsv, an empty last line.
    const edges = await sandbox(['inbox', 'categories', '--jq', '.[0] | [null, .key] | @tsv, ""']);
    expect(edges.stdout).toBe('\tuncategorized\n\n');
    expect((await sandbox(['inbox', 'categories', '--jq', 'empty'])).stdout).toBe('');
    const count = await sandbox(['tasks', 'list', '--all', '--jq', 'map(select(.type == "call")) | length']);
    expect(Number(count.stdout)).toBeGreaterThan(0);
  });

  it('refuses a bad expression with exit 2 before the command changes anything', async () => {
    const bad = await sandbox(['tasks', 'complete', 'tk000004', '--jq', '.[']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 2:\n    .[\n     ^\n' +
        'hint: See https://jqlang.org/manual/ for the syntax.\n',
    );
    expect((await sandbox(['tasks', 'get', 'tk000004', '--jq', '.status'])).stdout).toBe('overdue\n');
    const completed = await sandbox(['tasks', 'complete', 'tk000004', '--jq', '"\\(.taskId) \\(.status)"']);
    expect(completed.stdout).toBe('tk000004 completed\n');
  });

  it('ends with exit 1 on a runtime error, and exit 2 when the command prints no JSON', async () => {
    const runtime = await sandbox(['inbox', 'categories', '--jq', '.[0][0]']);
    expect({ code: runtime.code, stdout: runtime.stdout, stderr: runtime.stderr }).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'error: --jq: Cannot index object with number (0)\nhint: Check the filter against what --json alone prints.\n',
    });
    const notJson = await runBin(['completion', 'bash', '--jq', '.'], { env });
    expect({ code: notJson.code, stderr: notJson.stderr }).toEqual({
      code: 2,
      stderr: 'error: --jq: this command prints no JSON to filter\nhint: Leave out --jq for this command.\n',
    });
    const partial = await sandbox(['inbox', 'categories', '--jq', '.[0].key, error("stop here")']);
    expect({ code: partial.code, stdout: partial.stdout, stderr: partial.stderr }).toEqual({
      code: 1,
      stdout: 'uncategorized\n',
      stderr: 'error: --jq: stop here\nhint: Check the filter against what --json alone prints.\n',
    });
    const withCsv = await sandbox(['inbox', 'categories', '--csv', '--jq', '.']);
    expect({ code: withCsv.code, stderr: withCsv.stderr }).toEqual({
      code: 2,
      stderr:
        'error: --jq filters JSON: it cannot be used with --csv\n' +
        'hint: Nothing was changed. Add --help to the command to see what it takes.\n',
    });
  });
});
