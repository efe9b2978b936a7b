// --json prints what the service sent: each command's records (the payload, out of its envelope) unchanged, unknown
// fields included. Checked against the sandbox's own answer to the same read, and against a stub service whose
// answers carry more than the client knows.
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-json-');
});
afterEach(() => sb.close());

const cli = (argv: string[], env = sb.env) => run(argv, { env, cwd: dir });

type Body = any;

describe('--json prints the records as the service sent them', () => {
  it.each([
    [['fields', 'list'], '/v1/fields?systemFields=false', (b: Body) => b.payload],
    [['fields', 'list', '--system'], '/v1/fields?systemFields=true', (b: Body) => b.payload],
    // Schedule ids are numbers: printed as numbers, not as the text the client reads them as.
    [['schedules', 'list'], '/v1/schedules', (b: Body) => b.payload],
    [['inbox', 'categories'], '/v1/unibox/categories', (b: Body) => b.payload],
    [['tasks', 'list', '--page-size', '5'], '/v1/tasks?page=1&pageSize=5', (b: Body) => b.payload.tasks],
    [['tasks', 'get', 'tk000001'], '/v1/tasks/tk000001', (b: Body) => b.payload.task],
    [['domains', 'list'], '/v1/domain?order=Asc', (b: Body) => b.payload],
    [['sequences', 'steps', 'sqOnbrd1', 'stA1intro'], '/v1/sequences/sqOnbrd1/steps/stA1intro', (b: Body) => b],
    [
      ['sequences', 'subsequence', 'get', 'ssReplied'],
      '/v1/sequences/subsequence/ssReplied/settings',
      (b: Body) => b.payload,
    ],
    // One record {perMinute, perHour, perDay}, not a row a window.
    [['enrich', 'rate-limits'], '/v1/enrich/rate-limits', (b: Body) => b.payload],
  ])('%j', async (argv, path, records) => {
    const result = await cli([...argv, '--json']);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const sent = records((await sb.request('GET', path)).body);
    expect(sent).toBeTruthy();
    expect(JSON.parse(result.stdout)).toEqual(sent);
  });

  it('schedules create prints the schedule the service created, out of its envelope', async () => {
    const argv = ['schedules', 'create', '--name', 'Nights', '--timezone', 'UTC', '--day', 'mon=20:00-23:00', '--json'];
    const result = await cli(argv);
    expect(result.code).toBe(0);
    const schedules = (await sb.request('GET', '/v1/schedules')).body.payload;
    expect(JSON.parse(result.stdout)).toEqual(schedules.at(-1));
    expect(JSON.parse(result.stdout)).toMatchObject({ id: expect.any(Number), name: 'Nights' });
  });

  it('enrich status and tasks bulk-status print the jobs as the service sent them', async () => {
    const started = await cli(['enrich', 'contacts', '--linkedin-url', 'https://www.linkedin.com/in/nobody', '--yes']);
    const requestId = started.stdout.trim();
    const status = await cli(['enrich', 'status', requestId, '--json']);
    expect(JSON.parse(status.stdout)).toEqual([
      (await sb.request('GET', `/v1/enrich/status/${requestId}`)).body.payload,
    ]);
    const skip = await sb.request('POST', '/v1/tasks/bulk-skip', { taskIds: ['tk000003', 'nope'] });
    const bulk = await cli(['tasks', 'bulk-status', skip.body.bulkActionId, '--wait', '--json']);
    expect(JSON.parse(bulk.stdout)).toEqual(
      (await sb.request('GET', `/v1/tasks/bulk-status/${skip.body.bulkActionId}`)).body,
    );
  });
});

describe('--json passes on what the client does not know', () => {
  let stub: Server;
  let answers: Record<string, { status: number; body: unknown }>;
  beforeEach(async () => {
    answers = {};
    stub = createServer((req, res) => {
      const answer = answers[`${req.method} ${new URL(req.url!, 'http://stub').pathname}`];
      res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer?.body ?? { error: true, code: 404, message: 'not found' }));
    });
    stub.listen(0, '127.0.0.1');
    await once(stub, 'listening');
  });
  afterEach(() => new Promise((resolve) => stub.close(resolve)));
  const stubEnv = () => ({ ...sb.env, OUTREACH_BASE_URL: `http://127.0.0.1:${(stub.address() as AddressInfo).port}` });

  it('schedules list and create: unknown fields stay, ids keep their type', async () => {
    const week = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, slots: [] }));
    const schedule = { id: 58964, name: 'Office', timezone: 'UTC', isDefault: false, timeSlots: week, userId: 12 };
    answers['GET /v1/schedules'] = { status: 200, body: { message: 'ok', payload: { schedules: [schedule] } } };
    answers['POST /v1/schedules'] = {
      status: 201,
      body: { message: 'Schedule created successfully', payload: { ...schedule, id: 58965, isShared: true } },
    };
    const listed = await cli(['schedules', 'list', '--json'], stubEnv());
    expect(JSON.parse(listed.stdout)).toEqual([schedule]);
    const created = await cli(
      ['schedules', 'create', '--name', 'Office', '--timezone', 'UTC', '--day', 'mon=09:00-17:00', '--json'],
      stubEnv(),
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ ...schedule, id: 58965, isShared: true });
  });

  it('domains upload-picture prints the picture id as sent: a number, or text that is not one (never null)', async () => {
    writeFileSync(join(dir, 'a.png'), Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 1)]));
    const upload = (id: unknown) => {
      answers['POST /v1/domain/profile-picture/upload'] = { status: 201, body: { message: 'ok', payload: { id } } };
      return cli(['domains', 'upload-picture', 'a.png', '--json'], stubEnv());
    };
    expect(JSON.parse((await upload(4711)).stdout)).toEqual({ file: 'a.png', id: 4711 });
    expect(JSON.parse((await upload('pic_9aZ')).stdout)).toEqual({ file: 'a.png', id: 'pic_9aZ' });
  });

  it('domains buy prints the order the service answered with', async () => {
    const order = { checkoutUrl: 'https://pay.example/c/123', orderId: 'ord123', total: 42.5 };
    answers['POST /v1/domain'] = { status: 201, body: { message: 'Order placed', payload: order } };
    const argv = [
      ...['domains', 'buy', '--domain', 'acme-mail.com', '--mailbox', 'alice@acme-mail.com:Alice:Smith'],
      ...['--provider', 'google', '--owner-first', 'Ann', '--owner-last', 'Lee', '--company', 'Acme'],
      ...['--address', '1 Main St', '--zipcode', '94105', '--country', 'US', '--phone', '+14155550100'],
      ...['--yes', '--json'],
    ];
    const result = await cli(argv, stubEnv());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(order);
  });
});
