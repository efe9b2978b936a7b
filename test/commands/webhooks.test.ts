// outreach webhooks create / list / get / trigger through the real CLI against an in-process sandbox that delivers
// to a real local receiver: test deliveries, custom headers, events of real actions, failing receivers.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debugHint, run } from '../helpers/run.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import type { WebhookRecord } from '../../src/sandbox/model.js';
import { state } from '../helpers/sandbox-state.js';
import { webhooksTable } from '../../src/sandbox/resources/webhooks/table.js';

let sb: TestSandbox;
let receiver: Receiver;
let proxy: FaultProxy | undefined;
beforeEach(async () => {
  // The default deadline (5 s) and retry delays (0.2 s, 1 s): each passes only when a test says so (sb.deliveryTimers).
  sb = await startTestSandbox();
  receiver = await startReceiver();
});
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await sb.close();
  await receiver.close();
});

const webhooks = (argv: string[], extra: Parameters<typeof run>[1] = {}) =>
  run(['webhooks', ...argv], { env: sb.env, ...extra });
const creates = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/webhook/create');
const stored = () => state(sb).webhooks;

describe('webhooks create', () => {
  it('registers the webhook, whose test delivery reaches the URL with the custom headers', async () => {
    const result = await webhooks([
      'create', '--name', 'crm', '--url', receiver.url, '--event', 'task-*', '--event', 'reply-received',
      '--header', 'X-Secret: s3cr3t',
    ]); // prettier-ignore
    expect(result.code).toBe(0);
    const [webhook] = stored();
    expect(webhook).toMatchObject({
      name: 'crm',
      webhookUrl: receiver.url,
      status: 'active',
      failed: false,
      headers: { 'X-Secret': 's3cr3t' },
      webhookEvent: [
        'task-created', 'task-updated', 'bulk-task-updated', 'call-task-updated', 'linkedin-task-updated',
        'custom-task-updated', 'whatsapp-task-updated', 'reply-received',
      ], // prettier-ignore
    });
    expect(webhook!.id).toMatch(/^[0-9a-f]{24}$/);
    expect(receiver.deliveries).toHaveLength(1);
    expect(receiver.deliveries[0]!.headers['x-secret']).toBe('s3cr3t');
    expect(receiver.deliveries[0]!.body).toMatchObject({ event: 'test', webhook: { id: webhook!.id, name: 'crm' } });
    expect(result.stdout).toContain(`id\t${webhook!.id}\n`);
    expect(result.stdout).toContain('headers\tX-Secret: ***\n');
    expect(result.stdout).toContain('test delivery\tsuccess\n');
  });

  it('the sandbox delivers only to this machine: a receiver elsewhere gets a simulated delivery', async () => {
    const result = await webhooks([
      'create',
      '--name',
      'crm',
      '--url',
      'https://crm.example/hooks',
      '--event',
      'task-*',
    ]);
    expect(result.code).toBe(0);
    expect(stored()[0]).toMatchObject({ status: 'active', failed: false });
    const creds = await webhooks(['create', '--name', 'x', '--url', 'https://u:pw@crm.example/', '--event', 'task-*']);
    expect({ code: creds.code, error: creds.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error: 'error: --url must not hold a user name or password: send a secret with --header instead',
    });
  });

  it('sends headers {} when none are given, and reads a whole webhook from a file', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/context.js');
    const dir = tempDir();
    writeFileSync(join(dir, 'hook.yaml'), `name: from-file\nwebhookUrl: ${receiver.url}\nwebhookEvent: [sequence-*]\n`);
    const result = await webhooks(['create', '--file', 'hook.yaml'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(stored()[0]).toMatchObject({
      name: 'from-file',
      headers: {},
      webhookEvent: [
        'sequence-paused',
        'email-account-disconnected',
        'email-account-paused',
        'inbox-analyser-test-completed',
      ],
    });
  });

  it('a failed test delivery leaves the webhook paused: said plainly, exit 3, and get shows the failure', async () => {
    receiver.answer = 500;
    const result = await webhooks(['create', '--name', 'down', '--url', receiver.url, '--event', 'task-updated']);
    expect(result.code).toBe(3);
    const id = stored()[0]!.id;
    expect(result.stderr).toBe(
      `error: the test delivery to ${receiver.url} failed, so webhook ${id} starts paused and gets no events\n` +
        'hint: Make the URL answer 2xx to a POST, then re-enable the webhook in the web app (re-enabling sends a new test).\n',
    );
    const got = await webhooks(['get', id, '--json']);
    expect(JSON.parse(got.stdout)).toMatchObject({
      status: 'paused',
      failed: true,
      lastFailure: { statusCode: 500, message: 'the receiver answered 500' },
    });
    const shown = await webhooks(['get', id]);
    expect(shown.stdout).toMatch(
      /^last failure\t\d\d\/\d\d\/\d{4}, \d\d:\d\d:\d\d, HTTP 500, the receiver answered 500$/m,
    );
  });

  it('refuses bad input before sending: URL, event kind (with a suggestion), header syntax and repeats', async () => {
    const cases: Array<[string[], string]> = [
      [['--url', 'http://crm.example/hooks'], 'error: --url must use https (plain http only to localhost / 127.0.0.1), not "http://crm.example/hooks"'],
      [['--url', 'crm.example'], 'error: --url must be a URL such as https://crm.example/hooks, not "crm.example"'],
      [['--event', 'reply-recieved'], 'error: --event "reply-recieved" is not an event kind; did you mean reply-received?'],
      [['--event', 'meeting-*'], 'error: --event "meeting-*" matches no event kind'],
      [['--header', 'no colon'], 'error: --header takes "Name: value" with a header name of letters, digits and -, not "no colon"'],
      [['--header', 'X-A: 1', '--header', 'x-a: 2'], 'error: --header gives "x-a" twice (header names ignore case)'],
    ]; // prettier-ignore
    for (const [argv, message] of cases) {
      const base = ['create', '--name', 'n', '--url', 'https://crm.example/hooks', '--event', 'task-updated'];
      const result = await webhooks([...base, ...argv]);
      expect({ argv, code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
        argv,
        code: 2,
        error: message,
      });
    }
    const missing = await webhooks(['create', '--name', 'n']);
    expect(missing.stderr.split('\n')[0]).toBe('error: --url, --event are required (or --file)');
    expect(creates()).toHaveLength(0);
  });

  it('warns when the account already has 50 active webhooks', async () => {
    const base: WebhookRecord = {
      id: '', name: 'x', webhookUrl: receiver.url, webhookEvent: ['task-updated'], headers: {}, status: 'active',
      failed: false, createdAt: '2026-11-18T12:00:00.000Z',
    }; // prettier-ignore
    const table = sb.sandbox.store.table(webhooksTable);
    for (let i = 0; i < 50; i++) table.put({ ...base, id: `w${String(i).padStart(23, '0')}` });
    const result = await webhooks(['create', '--name', 'one-more', '--url', receiver.url, '--event', 'task-updated']);
    expect(result.stderr).toBe(
      'warning: the account already has 50 active webhooks, the most it may have: the service may refuse this one\n' +
        'error: An account can have at most 50 active webhooks (POST /v1/webhook/create: HTTP 400, code 1001)\n' +
        debugHint,
    );
    expect(result.code).toBe(1);
  });

  it('is never sent twice: a lost answer says it may have been created and to look first', async () => {
    let faulted = false;
    proxy = await startFaultProxy(sb.baseUrl, ({ path }) => {
      if (path !== '/v1/webhook/create' || faulted) return undefined;
      faulted = true;
      return 'reset-after';
    });
    const result = await webhooks(['create', '--name', 'lost', '--url', receiver.url, '--event', 'task-updated'], {
      env: { ...sb.env, OUTREACH_BASE_URL: proxy.baseUrl },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: the answer to creating webhook "lost" was lost: it may have been created\n' +
        'hint: Look with `outreach webhooks list` before creating it again (creating is never retried by itself).\n',
    );
    expect(stored()).toHaveLength(1);
    expect(proxy.log.filter((r) => r.path === '/v1/webhook/create')).toHaveLength(1);
  });
});

describe('webhooks list and get', () => {
  it('lists ids and names, every page with --all; an unknown id is exit 2', async () => {
    for (let i = 0; i < 3; i++)
      await webhooks(['create', '--name', `h${i}`, '--url', receiver.url, '--event', 'task-updated']);
    const ids = stored().map((w) => w.id);
    const listings = () => sb.sandbox.requestLog.filter((r) => r.path === '/v1/webhook').length;
    const before = listings();
    const all = await webhooks(['list', '--all', '--page-size', '2']);
    expect(all.stdout).toBe(ids.map((id, i) => `${id}\th${i}\n`).join(''));
    expect(listings() - before).toBe(2);
    const unknown = await webhooks(['get', 'ffffffffffffffffffffffff']);
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
      code: 2,
      stderr: 'error: no webhook ffffffffffffffffffffffff\nhint: See the ids with `outreach webhooks list`.\n',
    });
  });

  it('get masks header values unless --show-secrets', async () => {
    await webhooks([
      'create',
      '--name',
      's',
      '--url',
      receiver.url,
      '--event',
      'task-updated',
      '--header',
      'X-Key: k1',
    ]);
    const id = stored()[0]!.id;
    expect(JSON.parse((await webhooks(['get', id, '--json'])).stdout).headers).toEqual({ 'X-Key': '***' });
    expect(JSON.parse((await webhooks(['get', id, '--json', '--show-secrets'])).stdout).headers).toEqual({
      'X-Key': 'k1',
    });
  });
});

describe('webhook deliveries', () => {
  it('a bulk skip delivers bulk-task-updated with the skipped ids and the custom headers', async () => {
    await webhooks([
      'create',
      '--name',
      'tasks',
      '--url',
      receiver.url,
      '--event',
      'bulk-task-updated',
      '--header',
      'X-Secret: s',
    ]);
    const skipped = await run(['tasks', 'bulk-skip', 'tk000001', 'tk000002', 'nope', '--yes'], { env: sb.env });
    expect(skipped.code).toBe(3);
    await sb.sandbox.store.webhooks!.idle();
    const events = receiver.deliveries.filter((d) => d.body.event === 'bulk-task-updated');
    expect(events).toHaveLength(1);
    expect(events[0]!.headers['x-secret']).toBe('s');
    expect(events[0]!.body).toMatchObject({
      bulkAction: { action: 'skip', totalTasks: 3, failed: 1 },
      taskIds: ['tk000001', 'tk000002'],
      webhook: { name: 'tasks' },
    });
  });

  it('a receiver that keeps failing is retried, then the webhook is paused with its last failure', async () => {
    await webhooks(['create', '--name', 'flaky', '--url', receiver.url, '--event', 'sequence-paused']);
    receiver.answer = 503;
    await run(['sequences', 'pause', 'sqOnbrd1'], { env: sb.env });
    // Each retry waits its delay: the test lets it pass once the delivery is waiting on it.
    for (const delay of [200, 1_000]) {
      await sb.deliveryTimers.waitingFor(delay);
      sb.deliveryTimers.elapse(delay);
    }
    await sb.sandbox.store.webhooks!.idle();
    expect(receiver.deliveries.filter((d) => d.body.event === 'sequence-paused')).toHaveLength(3);
    // The test delivery, then three attempts 0.2 s and 1 s apart, each under the 5 s deadline.
    expect(sb.deliveryTimers.requested).toEqual([5_000, 5_000, 200, 5_000, 1_000, 5_000]);
    expect(stored()[0]).toMatchObject({
      status: 'paused',
      failed: true,
      lastFailure: { statusCode: 503, message: 'the receiver answered 503' },
    });
  });

  it('a receiver that hangs is given up at the deadline, and nothing waits for it longer', async () => {
    receiver.answer = 'hang';
    const created = webhooks(['create', '--name', 'slow', '--url', receiver.url, '--event', 'task-updated']);
    // The test delivery has arrived and is waiting on its deadline: the deadline passes.
    await receiver.received(1);
    await sb.deliveryTimers.waitingFor(5_000);
    sb.deliveryTimers.elapse(5_000);
    const result = await created;
    expect(result.code).toBe(3);
    expect(state(sb).webhooks[0]!.lastFailure).toMatchObject({
      statusCode: 0,
      message: 'no answer within 5s',
    });
    expect(sb.deliveryTimers.requested).toEqual([5_000]);
  });

  it('a receiver that answers a byte at a time is given up at the same deadline', async () => {
    const { createServer } = await import('node:http');
    let answering: (res: ServerResponse) => void;
    const answer = new Promise<ServerResponse>((resolve) => (answering = resolve));
    const trickle = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('.');
      answering(res);
    });
    await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(trickle.address() as { port: number }).port}/`;
    try {
      const created = webhooks(['create', '--name', 'trickle', '--url', url, '--event', 'task-updated']);
      const res = await answer;
      await sb.deliveryTimers.waitingFor(5_000);
      // More of the answer keeps coming; the deadline set for the whole exchange is not set again.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => res.write('.', resolve));
      sb.deliveryTimers.elapse(5_000);
      const result = await created;
      expect(result.code).toBe(3);
      expect(state(sb).webhooks[0]!.lastFailure).toMatchObject({ message: 'no answer within 5s' });
      expect(sb.deliveryTimers.requested).toEqual([5_000]);
    } finally {
      trickle.closeAllConnections();
      await new Promise((resolve) => trickle.close(resolve));
    }
  });

  it('trigger delivers a sample event now in the sandbox, and says it cannot elsewhere', async () => {
    await webhooks(['create', '--name', 'mail', '--url', receiver.url, '--event', 'email-*']);
    const id = stored()[0]!.id;
    const triggered = await webhooks(['trigger', 'email-sent']);
    expect({ code: triggered.code, stdout: triggered.stdout }).toEqual({ code: 0, stdout: `${id}\t200\tdelivered\n` });
    expect(receiver.deliveries.at(-1)!.body).toMatchObject({
      event: 'email-sent',
      prospect: { email: expect.stringContaining('@') },
      sequence: { sequenceName: expect.any(String) },
      user: { email: 'alice@try-outreach.com' },
    });
    const none = await webhooks(['trigger', 'task-created']);
    expect({ code: none.code, stdout: none.stdout, stderr: none.stderr }).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no active webhook is subscribed to task-created: nothing delivered\n',
    });
    const remote = await webhooks(['trigger', 'email-sent'], {
      env: { OUTREACH_BASE_URL: 'https://api.example.com', OUTREACH_API_KEY: 'sk_live_0123456789' },
    });
    expect({ code: remote.code, error: remote.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error:
        'error: webhooks trigger works only against the sandbox; https://api.example.com is not on this machine and ' +
        'the service has no endpoint that sends a sample event',
    });
    const elsewhere = await startReceiver(404);
    const real = await webhooks(['trigger', 'email-sent'], {
      env: { OUTREACH_BASE_URL: elsewhere.url.replace('/hooks', ''), OUTREACH_API_KEY: 'sk_live_0123456789' },
    });
    await elsewhere.close();
    expect({ code: real.code, error: real.stderr.split('\n')[0] }).toEqual({
      code: 2,
      error:
        'error: webhooks trigger works only against the sandbox: the service has no endpoint that sends a sample event',
    });
  });
});
