// A verb that returns a result computes and prints nothing: the records come back as data (what an agent's front end
// takes), and the CLI renders them, each kind as the user asked for it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandContext } from '../../src/cli/command-context.js';
import type { GlobalFlags } from '../../src/cli/globals.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  csvResult,
  doneResult,
  streamResult,
  textResult,
  valueResult,
  type ListResult,
  type RecordResult,
  type VerbResult,
} from '../../src/cli/result.js';
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

/** Renders a result as `outreach` would with these global flags: what reaches stdout and stderr, and the exit code. */
async function rendered(result: VerbResult, flags: GlobalFlags = {}) {
  const captured = createTestContext({ env: sb.env });
  const ctx = createCommandContext(captured.ctx, flags);
  try {
    const { renderResult } = await import('../../src/cli/render/output.js');
    const code = await renderResult(ctx, result).catch((error: Error) => `threw ${error.message}`);
    return { code, stdout: captured.stdout(), stderr: captured.stderr() };
  } finally {
    await ctx.dispose();
  }
}

async function* items() {
  yield { value: { id: 1, event: 'task-done' }, text: '12:00:00\ttask-done\n' };
  yield { value: { id: 2, event: 'task-skipped' }, text: '12:00:01\ttask-skipped\n' };
}

describe('results the CLI renders', () => {
  it('a stream writes each item as its text, or as one JSON line under --json, then what is said after it', async () => {
    const after = () => ({
      note: 'Stopped: 2 deliveries received.',
      exitCode: 3 as const,
      failing: '1 of 2 deliveries refused',
      hint: 'See the lines above.',
    });
    expect(await rendered(streamResult(items(), after))).toEqual({
      code: 3,
      stdout: '12:00:00\ttask-done\n12:00:01\ttask-skipped\n',
      stderr: 'Stopped: 2 deliveries received.\nerror: 1 of 2 deliveries refused\nhint: See the lines above.\n',
    });
    expect(await rendered(streamResult(items(), after), { json: true })).toEqual({
      code: 3,
      stdout: '{"id":1,"event":"task-done"}\n{"id":2,"event":"task-skipped"}\n',
      stderr: 'Stopped: 2 deliveries received.\nerror: 1 of 2 deliveries refused\nhint: See the lines above.\n',
    });
  });

  it('CSV keeps its header and neutralises formulas piped, and text is written as it is whatever the format', async () => {
    async function* rows() {
      yield ['a@x.com', 'email'];
      yield ['=HYPERLINK("x")', 'email'];
    }
    const csv = csvResult({ header: ['value', 'type'], rows: rows(), neutraliseFormulas: true });
    expect((await rendered(csv)).stdout).toBe('value,type\na@x.com,email\n"\'=HYPERLINK(""x"")",email\n');
    expect((await rendered(textResult('#!/bin/sh\n'), { json: true })).stdout).toBe('#!/bin/sh\n');
  });

  it('a value that stopped part-way is written, then what went wrong, then the error is thrown', async () => {
    const result = valueResult(['f1'], 'a.pdf\tf1\n', {
      failing: 'b.pdf: too large',
      error: new Error('connection reset'),
    });
    expect(await rendered(result)).toEqual({
      code: 'threw connection reset',
      stdout: 'a.pdf\tf1\n',
      stderr: 'b.pdf: too large\n',
    });
  });

  it('an action done says its warning after its words, and nothing of either under --quiet', async () => {
    const done = () => doneResult('Logged out.', undefined, 'OUTREACH_API_KEY is still set.');
    expect((await rendered(done())).stderr).toBe('Logged out.\nwarning: OUTREACH_API_KEY is still set.\n');
    expect((await rendered(done(), { quiet: true })).stderr).toBe('');
  });
});

describe('no verb writes for itself', () => {
  it('no file of src/commands writes to stdout or builds its own list writer', () => {
    const root = fileURLToPath(new URL('../../src/commands/', import.meta.url));
    const writers = /ctx\.stdout\b|process\.(stdout|stderr)|console\.|\b(writeOut|writeJson|createListWriter)\(/;
    const offenders = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        readFileSync(join(root, file), 'utf8')
          .split('\n')
          .map((line, i) => ({ where: `${file}:${i + 1}`, line }))
          .filter(({ line }) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && writers.test(line)),
      );
    expect(offenders.map((o) => o.where)).toEqual([]);
  });
});
