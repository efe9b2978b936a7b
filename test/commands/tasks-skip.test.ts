// tasks skip through the real CLI against an in-process sandbox: the task skipped, a second skip changing nothing, and
// the refusals (a completed task, an unknown id).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debugHint, run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(() => sb.close());

const tasks = (argv: string[]) => run(['tasks', ...argv], { env: sb.env });
const stored = (id: string) => state(sb).tasks.find((t) => t.taskId === id)!;

describe('tasks skip', () => {
  it('skips a task: it is not due any more, and a second skip changes nothing', async () => {
    expect(stored('tk000002').doneStatus).toBeUndefined();
    expect(await tasks(['skip', 'tk000002'])).toMatchObject({ code: 0, stdout: '', stderr: 'Skipped tk000002.\n' });
    expect(stored('tk000002')).toMatchObject({ doneStatus: 'skipped' });
    const again = await tasks(['skip', 'tk000002', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ taskId: 'tk000002', status: 'skipped' });
    const got = await tasks(['get', 'tk000002', '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({ taskId: 'tk000002', status: 'skipped' });
  });

  it('says why the service refused a completed task, and names an unknown one (exit 2)', async () => {
    const completed = await tasks(['skip', 'tk000251']);
    expect(completed).toMatchObject({
      code: 1,
      stderr:
        'error: Task tk000251 was completed and cannot be skipped (POST /v1/tasks/tk000251/skip: HTTP 400, code 4000)\n' +
        debugHint,
    });
    expect(stored('tk000251').doneStatus).toBe('completed');
    expect(await tasks(['skip', 'tk999999'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'error: no task tk999999\nhint: See the ids with `outreach tasks list`.\n',
    });
  });
});
