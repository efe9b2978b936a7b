// `outreach mcp` in this process: the SDK's own client over an in-memory transport, against a test sandbox. Every
// tool declares an output schema, and the server holds each answer to it (an answer that did not fit would come back
// as a protocol error, not a result).
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mcpServerFactory } from '../../src/cli/mcp/server.js';
import { groups } from '../../src/commands/manifest.js';
import { createTestContext, tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';
import { startReceiver } from '../helpers/receiver.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

let sb: TestSandbox;
let client: Client;

/** A client of a new server; `answer`, when given, is the user's answer to a question (the client can elicit). */
async function connect(
  answer?: (message: string) => { action: 'accept' | 'decline'; content?: { confirm: boolean } },
  filesDir = tempDir(),
  maxAffected?: number,
) {
  const { ctx } = createTestContext({ env: sb.env, cwd: filesDir });
  const { factory } = await mcpServerFactory(ctx, groups, {
    globals: [],
    readOnly: false,
    filesDir,
    version: '0.0.0-test',
    maxAffected,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  client = new Client({ name: 'in-process', version: '1.0.0' }, answer ? { capabilities: { elicitation: {} } } : {});
  if (answer) client.setRequestHandler('elicitation/create', async (request) => answer(request.params.message));
  await client.connect(clientSide);
}

/** A client of a new server whose service is at `baseUrl`, waiting 50 ms for a job to set itself up or rehearse. */
async function connectTo(baseUrl: string, filesDir: string) {
  const { ctx } = createTestContext({ env: { ...sb.env, OUTREACH_BASE_URL: baseUrl }, cwd: filesDir });
  const waits = { rehearsalMs: 50, setupMs: 50 };
  const settings = { globals: [], readOnly: false, filesDir, version: '0.0.0-test', waits };
  const { factory } = await mcpServerFactory(ctx, groups, settings);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await factory().connect(serverSide);
  client = new Client({ name: 'in-process', version: '1.0.0' });
  await client.connect(clientSide);
}

beforeEach(async () => {
  sb = await startTestSandbox();
});
afterEach(async () => {
  await client.close();
  await sb.close();
});

describe('outreach mcp in process', () => {
  it('declares an output schema on every tool, and answers reads that hold to it', async () => {
    await connect();
    const { tools } = await client.listTools();
    expect(tools.filter((t) => t.outputSchema?.type !== 'object').map((t) => t.name)).toEqual([]);
    for (const [name, args] of [
      ['tasks_list', { limit: 3 }],
      ['tasks_get', { taskId: 'tk000001' }],
      ['inbox_categories', { fields: ['key', 'name'] }],
      ['dnc_lists', {}],
      ['fields_list', { limit: 2 }],
    ] as const) {
      const answer = await client.callTool({ name, arguments: args });
      expect(answer.isError, name).toBeFalsy();
      expect(answer.structuredContent, name).toEqual(JSON.parse((answer.content as Array<{ text: string }>)[0]!.text));
    }
  });

  it('previews a guarded tool without changing anything, as over stdio', async () => {
    await connect();
    const before = sb.sandbox.requestLog.filter((r) => r.method !== 'GET').length;
    const answer = await client.callTool({ name: 'tasks_skip', arguments: { taskId: 'tk000001' } });
    expect(answer.structuredContent).toMatchObject({
      preview: { command: 'outreach tasks skip tk000001' },
      affected: 1,
    });
    expect(sb.sandbox.requestLog.filter((r) => r.method !== 'GET').length).toBe(before);
  });

  it('asks the user as well where the client can, and does nothing when the user declines', async () => {
    const asked: string[] = [];
    let accept = false;
    await connect((message) => {
      asked.push(message);
      return accept ? { action: 'accept', content: { confirm: true } } : { action: 'decline' };
    });
    const skips = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path.endsWith('/skip')).length;
    const first = await client.callTool({ name: 'tasks_skip', arguments: { taskId: 'tk000001' } });
    const confirm = (first.structuredContent as { confirm: string }).confirm;
    const declined = await client.callTool({ name: 'tasks_skip', arguments: { taskId: 'tk000001', confirm } });
    expect(declined.structuredContent).toEqual({ exitCode: 2, error: 'error: the user declined; nothing was done' });
    expect(skips()).toBe(0);
    // The token was not spent by the question: with the user's yes, it acts.
    accept = true;
    const done = await client.callTool({ name: 'tasks_skip', arguments: { taskId: 'tk000001', confirm } });
    expect(done.isError).toBeFalsy();
    expect(skips()).toBe(1);
    expect(asked).toEqual([
      'An agent asks to run tasks skip on 1 record(s). Do it?',
      'An agent asks to run tasks skip on 1 record(s). Do it?',
    ]);
  });

  it('dnc_sync: a preview shows the difference and sends nothing; with its token it is a job that sends it', async () => {
    const files = tempDir('outreach-mcp-sync-');
    const file = join(files, 'unsub.csv');
    writeFileSync(file, 'Email Address,UNSUB_TIME\nann@agent.example,2024-01-01\nacme.com,2024-01-01\n');
    await connect(undefined, files);
    const adds = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/dnc').length;
    const first = await client.callTool({ name: 'dnc_sync', arguments: { file, list: 'dncCustmr2' } });
    const preview = first.structuredContent as { confirm: string; preview: { new: unknown; alreadyThere: unknown } };
    expect(preview.preview).toMatchObject({ new: { email: 1, domain: 0 }, alreadyThere: { email: 0, domain: 1 } });
    expect(first.structuredContent).toMatchObject({ affected: 1 }); // the new values, not the rows
    // A rehearsal is a job that ends at once: its answer carries the outcome, no job_status needed.
    const rehearsal = await client.callTool({
      name: 'dnc_sync',
      arguments: { file, list: 'dncCustmr2', dryRun: true },
    });
    expect(rehearsal.structuredContent).toMatchObject({
      job: { state: 'done' },
      outcome: { new: { email: 1, domain: 0 }, sent: 0 },
    });
    expect(rehearsal.structuredContent).not.toHaveProperty('next');
    expect(adds()).toBe(0);
    const started = await client.callTool({
      name: 'dnc_sync',
      arguments: { file, list: 'dncCustmr2', confirm: preview.confirm },
    });
    const { job } = started.structuredContent as { job: { id: string } };
    await client.callTool({ name: 'job_status', arguments: { id: job.id, waitSeconds: 30 } });
    expect(adds()).toBe(1);
    const values = state(sb).dncLists[1]!.items.map((i) => i.value);
    expect(values).toContain('ann@agent.example');
  });

  it('dnc_sync: --max-affected counts the new values the sync would add, and refuses more', async () => {
    const files = tempDir('outreach-mcp-sync-max-');
    const file = join(files, 'unsub.csv');
    const emails = Array.from({ length: 5 }, (_, i) => `max${i}@agent.example`);
    writeFileSync(file, `Email Address,UNSUB_TIME\n${emails.map((e) => `${e},2024-01-01`).join('\n')}\n`);
    await connect(undefined, files, 4);
    const refused = await client.callTool({ name: 'dnc_sync', arguments: { file, list: 'dncCustmr2' } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      exitCode: 2,
      affected: 5,
      error:
        'error: this would touch 5 records, more than --max-affected 4\nhint: Narrow the selection, or split the work.',
    });
    expect(sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === '/v1/dnc')).toHaveLength(0);
  });

  it('prospects_import without the do-not-contact check is guarded: a preview and a token first', async () => {
    const files = tempDir('outreach-mcp-nodnc-');
    const file = join(files, 'leads.csv');
    writeFileSync(file, 'Email\nunchecked@agent.example\n');
    await connect(undefined, files);
    const posts = () => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path.includes('prospect')).length;
    const first = await client.callTool({ name: 'prospects_import', arguments: { file, dncCheck: false } });
    expect(first.structuredContent).toMatchObject({ affected: 1, confirm: expect.any(String) });
    expect(posts()).toBe(0);
    // With the check (the default), the same import is not guarded: it starts as a job.
    const checked = await client.callTool({ name: 'prospects_import', arguments: { file, wait: true } });
    const { job } = checked.structuredContent as { job: { id: string } };
    await client.callTool({ name: 'job_status', arguments: { id: job.id, waitSeconds: 30 } });
    expect(posts()).toBeGreaterThan(0);
  });

  it('answers a job tool with its running job when the service is silent, as it does a dry run', async () => {
    // A service that takes every request and never answers: the job reports nothing and keeps no journal yet.
    const silent = await startReceiver('hang');
    const files = tempDir('outreach-mcp-silent-');
    for (const name of ['sent.csv', 'rehearsed.csv']) writeFileSync(join(files, name), 'Email\nquiet@agent.example\n');
    await connectTo(silent.url, files);
    const started = [];
    for (const [name, dryRun] of [
      ['sent.csv', false],
      ['rehearsed.csv', true],
    ] as const) {
      const file = join(files, name);
      const answer = await client.callTool({ name: 'prospects_import', arguments: { file, dryRun } });
      started.push((answer.structuredContent as { job: { id: string; state: string } }).job);
    }
    expect(started.map((job) => job.state)).toEqual(['running', 'running']);
    // Once the service goes away, each job ends with the failure, followed as any job is.
    await silent.close();
    for (const job of started) {
      const status = await client.callTool({ name: 'job_status', arguments: { id: job.id, waitSeconds: 60 } });
      expect((status.structuredContent as { job: { state: string } }).job.state).toBe('failed');
    }
  });

  it('job_stop stops a job as Ctrl-C would: it ends interrupted, and job_resume starts it again', async () => {
    const silent = await startReceiver('hang');
    const files = tempDir('outreach-mcp-stop-');
    const file = join(files, 'leads.csv');
    writeFileSync(file, 'Email\nstopped@agent.example\n');
    await connectTo(silent.url, files);
    const started = await client.callTool({ name: 'prospects_import', arguments: { file } });
    const { job } = started.structuredContent as { job: { id: string; state: string } };
    await silent.received(1);
    const stopped = await client.callTool({ name: 'job_stop', arguments: { id: job.id } });
    expect(stopped.structuredContent).toMatchObject({
      job: { id: job.id, state: 'failed' },
      outcome: { exitCode: 130 },
    });
    // Said in an agent's words: no second Ctrl-C to press, job_resume to send the cut requests again.
    expect((stopped.structuredContent as { outcome: { error: string } }).outcome.error).toBe(
      'stopping: nothing new is sent; waiting up to 30s for the requests under way to be answered\n' +
        'interrupted\n' +
        'hint: Requests still unanswered after 30s were cut; job_resume sends them again.',
    );
    // It kept its journal: job_resume continues it (here against the same silent service: stopped again).
    const resumed = await client.callTool({ name: 'job_resume', arguments: { id: job.id } });
    const again = (resumed.structuredContent as { job: { id: string; state: string; command: string } }).job;
    expect(again).toMatchObject({ state: 'running', command: `outreach prospects import ${file} --resume` });
    const stoppedAgain = await client.callTool({ name: 'job_stop', arguments: { id: again.id } });
    expect(stoppedAgain.structuredContent).toMatchObject({ job: { state: 'failed' }, outcome: { exitCode: 130 } });
    // A job that has ended is left as it is.
    const late = await client.callTool({ name: 'job_stop', arguments: { id: job.id } });
    expect(late.structuredContent).toMatchObject({ job: { state: 'failed' }, outcome: { exitCode: 130 } });
    await silent.close();
  });
});
