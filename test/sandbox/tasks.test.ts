// Sandbox rules for tasks (spec.md, Tasks): statuses from the clock, filters, sorting, paging, complete, bulk skip.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const list = async (query: string) => (await sb.request('GET', `/v1/tasks?${query}`)).body.payload;
const advance = (ms: number) => sb.request('POST', '/_sandbox/clock', { advanceMs: ms });

describe('GET /v1/tasks', () => {
  it('computes upcoming, dueToday and overdue from the clock, and keeps completed and skipped', async () => {
    const counts: Record<string, number> = {};
    for (const status of ['upcoming', 'dueToday', 'overdue', 'completed', 'skipped'])
      counts[status] = (await list(`status=${status}&pageSize=1`)).meta.totalItems;
    expect(counts).toEqual({ upcoming: 80, dueToday: 40, overdue: 130, completed: 30, skipped: 20 });
    await advance(86_400_000);
    expect((await list('status=overdue&pageSize=1')).meta.totalItems).toBe(170);
    expect((await list('status=completed&pageSize=1')).meta.totalItems).toBe(30);
  });

  it('filters by type, sequence, assignee, prospect outcome, call outcome (either spelling) and search', async () => {
    const calls = await list('taskType=call&pageSize=500');
    expect(calls.tasks.every((t: { type: string }) => t.type === 'call')).toBe(true);
    expect(
      (await list('sequenceId=sqEvents3&pageSize=500')).tasks.every((t: any) => t.sequence.id === 'sqEvents3'),
    ).toBe(true);
    expect(
      (await list('taskAssignee=usBobOps2&pageSize=500')).tasks.every(
        (t: any) => t.taskAssignee.email === 'bob@try-outreach.com',
      ),
    ).toBe(true);
    expect(
      (await list('prospectOutcome=interested&pageSize=500')).tasks.every(
        (t: any) => t.sequence.prospectOutcome === 'Interested',
      ),
    ).toBe(true);
    const titled = await list('callOutcome=No%20Answer&pageSize=500');
    const hyphen = await list('callOutcome=no-answer&pageSize=500');
    expect(titled.meta.totalItems).toBeGreaterThan(0);
    expect(hyphen.tasks).toEqual(titled.tasks);
    expect(
      (await list('search=grace%20hopper&pageSize=500')).tasks.every((t: any) => t.title.includes('Grace Hopper')),
    ).toBe(true);
  });

  it('sorts by dueDate, priority, completedAt, skippedAt in either order', async () => {
    const due = (await list('sortBy=dueDate&sortOrder=DESC&pageSize=300')).tasks.map((t: any) => Date.parse(t.dueDate));
    expect(due).toEqual([...due].sort((a, b) => b - a));
    const rank: Record<string, number> = { urgent: 1, high: 2, medium: 3, low: 4 };
    const priorities = (await list('sortBy=priority&sortOrder=ASC&pageSize=300')).tasks.map(
      (t: any) => rank[t.priority],
    );
    expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
    const completed = (await list('status=completed&sortBy=completedAt&pageSize=100')).tasks.map((t: any) =>
      Date.parse(t.completedAt),
    );
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
  });

  it('pages with page and pageSize, default 25', async () => {
    const first = await list('');
    expect(first.tasks).toHaveLength(25);
    expect(first.meta).toEqual({ totalItems: 300, currentPage: 1, itemsPerPage: 25, totalPages: 12 });
    const second = await list('page=2&pageSize=25');
    expect(second.tasks[0].taskId).not.toBe(first.tasks[0].taskId);
  });

  it('refuses values outside the allowed lists and page < 1, naming the parameter', async () => {
    for (const [query, field] of [
      ['status=late', 'status'],
      ['taskType=email', 'taskType'],
      ['sortBy=title', 'sortBy'],
      ['sortOrder=UP', 'sortOrder'],
      ['page=0', 'page'],
      ['callOutcome=maybe', 'callOutcome'],
    ]) {
      const res = await sb.request('GET', `/v1/tasks?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^Validation failed: query\\.${field}: `));
    }
  });
});

describe('tasks: get and complete', () => {
  it('answers an unknown task with 404', async () => {
    const res = await sb.request('GET', '/v1/tasks/nope');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Task nope could not be found');
  });

  it('refuses to complete a call task without callOutcome', async () => {
    const res = await sb.request('POST', '/v1/tasks/tk000001/complete', {});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('callOutcome is required to complete a call task');
  });

  it('completes a call task, storing the outcome in title case whichever spelling came', async () => {
    const res = await sb.request('POST', '/v1/tasks/tk000001/complete', { callOutcome: 'left-voicemail' });
    expect(res.body.payload.task).toEqual({ taskId: 'tk000001', status: 'completed', callOutcome: 'Left Voicemail' });
    expect((await sb.request('GET', '/v1/tasks/tk000001')).body.payload.task.status).toBe('completed');
  });

  it('completes other tasks without an outcome', async () => {
    const res = await sb.request('POST', '/v1/tasks/tk000002/complete', {});
    expect(res.status).toBe(200);
    expect(res.body.payload.task.status).toBe('completed');
  });
});

describe('bulk skip', () => {
  it('refuses more than 100 ids', async () => {
    const res = await sb.request('POST', '/v1/tasks/bulk-skip', {
      taskIds: Array.from({ length: 101 }, (_, i) => `tk${i}`),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: body.taskIds: at most 100 task ids per request');
  });

  it('is asynchronous: pending first, completed a moment later, with counts and a CSV of failures', async () => {
    await sb.request('POST', '/v1/tasks/tk000002/complete', {});
    const started = await sb.request('POST', '/v1/tasks/bulk-skip', {
      taskIds: ['tk000003', 'tk000004', 'tk000002', 'nope'],
    });
    expect(started.status).toBe(200);
    const { bulkActionId, statusCheckUrl } = started.body;
    expect(statusCheckUrl).toBe(`/v1/tasks/bulk-status/${bulkActionId}`);
    const pending = await sb.request('GET', statusCheckUrl);
    expect(pending.body).toMatchObject({
      bulkActionId,
      action: 'skip',
      status: 'pending',
      totalTasks: 4,
      pending: 4,
      completed: 0,
      failed: 0,
    });
    await advance(5_000);
    const done = await sb.request('GET', statusCheckUrl);
    expect(done.body).toMatchObject({ status: 'completed', totalTasks: 4, completed: 2, failed: 2, pending: 0 });
    expect((await fetch(done.body.csvDownloadLink)).status).toBe(401); // the key is needed
    expect((await sb.request('GET', new URL(done.body.csvDownloadLink).pathname)).body).toBe(
      'taskId,reason\ntk000002,task already completed\nnope,task not found\n',
    );
    expect((await sb.request('GET', '/v1/tasks/tk000003')).body.payload.task.status).toBe('skipped');
  });

  it('counts a task skipped twice as skipped, so a replayed batch reports the same', async () => {
    await sb.request('POST', '/v1/tasks/bulk-skip', { taskIds: ['tk000003'] });
    const again = await sb.request('POST', '/v1/tasks/bulk-skip', { taskIds: ['tk000003'] });
    await advance(5_000);
    const status = await sb.request('GET', `/v1/tasks/bulk-status/${again.body.bulkActionId}`);
    expect(status.body).toMatchObject({ completed: 1, failed: 0 });
    expect(status.body.csvDownloadLink).toBeUndefined();
  });
});

describe('snooze and bulk snooze', () => {
  const inADay = () => new Date(Date.parse(sb.sandbox.store.isoNow()) + 86_400_000).toISOString();

  it('snoozes one task: due again when the snooze ends, answered as snoozed; done tasks and past times refused', async () => {
    const until = inADay();
    const res = await sb.request('POST', '/v1/tasks/tk000003/snooze', { snoozeUntil: until });
    expect(res.status).toBe(200);
    expect(res.body.payload.task).toEqual({
      taskId: 'tk000003',
      status: 'snoozed',
      snoozedUntil: until,
      callOutcome: null,
    });
    expect((await sb.request('GET', '/v1/tasks/tk000003')).body.payload.task).toMatchObject({
      status: 'upcoming',
      dueDate: until,
    });
    const done = await sb.request('POST', '/v1/tasks/tk000251/snooze', { snoozeUntil: until });
    expect([done.status, done.body.code]).toEqual([400, 4000]);
    const past = await sb.request('POST', '/v1/tasks/tk000003/snooze', { snoozeUntil: '2020-01-01T00:00:00Z' });
    expect([past.status, past.body.code]).toEqual([400, 1001]);
    const unzoned = await sb.request('POST', '/v1/tasks/tk000003/snooze', { snoozeUntil: '2030-01-01T00:00' });
    expect([unzoned.status, unzoned.body.code]).toEqual([400, 1001]);
  });

  it('bulk-snoozes up to 10,000 ids, reporting done and unknown tasks as failures of a snooze action', async () => {
    const until = inADay();
    const tooMany = await sb.request('POST', '/v1/tasks/bulk-snooze', {
      taskIds: Array.from({ length: 10_001 }, (_, i) => `t${i}`),
      snoozeUntil: until,
    });
    expect(tooMany.status).toBe(400);
    const res = await sb.request('POST', '/v1/tasks/bulk-snooze', {
      taskIds: ['tk000004', 'tk000251', 'nope', 'tk000004'],
      snoozeUntil: until,
    });
    expect(res.status).toBe(200);
    await advance(60_000);
    const status = (await sb.request('GET', `/v1/tasks/bulk-status/${res.body.bulkActionId}`)).body;
    expect(status).toMatchObject({ action: 'snooze', totalTasks: 3, completed: 1, failed: 2, status: 'completed' });
    const report = await sb.request('GET', new URL(status.csvDownloadLink).pathname);
    expect(report.body).toBe('taskId,reason\ntk000251,task already completed\nnope,task not found\n');
    expect((await sb.request('GET', '/v1/tasks/tk000004')).body.payload.task.dueDate).toBe(until);
  });
});
