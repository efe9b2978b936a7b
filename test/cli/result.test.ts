// A verb that returns a result computes and prints nothing: the records come back as data (what an agent's front end
// takes), and the CLI renders them.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandContext } from '../../src/cli/command-context.js';
import type { GlobalFlags } from '../../src/cli/globals.js';
import type { ListResult, RecordResult, VerbResult } from '../../src/cli/result.js';
import { createTestContext } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

async function runVerb(
  load: () => Promise<{ default: { run(ctx: never, opts: never): Promise<unknown> } }>,
  opts: object,
) {
  const captured = createTestContext({ env: sb.env });
  const ctx = createCommandContext(captured.ctx, {} as GlobalFlags);
  try {
    const result = (await (await load()).default.run(ctx as never, opts as never)) as VerbResult;
    return { result, stdout: captured.stdout(), stderr: captured.stderr() };
  } finally {
    await ctx.dispose();
  }
}

describe('verbs return results', () => {
  it('tasks get returns the task as a record and writes nothing', async () => {
    const { result, stdout, stderr } = await runVerb(() => import('../../src/commands/tasks/get.js'), {
      args: ['tk000001'],
    });
    expect({ stdout, stderr }).toEqual({ stdout: '', stderr: '' });
    const record = result as unknown as RecordResult<{ taskId: string }>;
    expect(record.kind).toBe('record');
    expect(record.record.taskId).toBe('tk000001');
    expect(record.fields.map((f) => f.header)).toContain('Note');
  });

  it('fields list returns its records and their columns', async () => {
    const { result, stdout } = await runVerb(() => import('../../src/commands/fields/list.js'), { system: true });
    expect(stdout).toBe('');
    const list = result as unknown as ListResult<{ label: string }>;
    expect(list.kind).toBe('list');
    const labels: string[] = [];
    for await (const field of list.rows as Iterable<{ label: string }>) labels.push(field.label);
    expect(labels).toContain('Email');
  });
});
