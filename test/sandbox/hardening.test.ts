// The sandbox against a hostile client on 127.0.0.1 (issue 27 item 12): the key is checked from the headers before a
// byte of the body is read, report files need the key and have unguessable names, and a body that trickles in is cut
// off at the deadline. Every wait is for an answer, a closed connection or a deadline asked for, never a timer.
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { bodyDeadlineMs, refusedBodyBytes } from '../../src/sandbox/server.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await sb?.close();
  sb = undefined;
});

const mib = 2 ** 20;

interface RawConnection {
  socket: Socket;
  /** Everything the sandbox has sent so far. */
  received(): string;
  /** Resolves once the sandbox has sent text matching `pattern`. */
  answer(pattern?: RegExp): Promise<string>;
  /** Resolves once the connection is closed (an error included). */
  closed: Promise<void>;
  isOpen(): boolean;
}

/** A raw connection that sends the request head as given, so that the test decides when (and whether) the body goes. */
async function rawRequest(head: string[]): Promise<RawConnection> {
  const socket = connect(Number(new URL(sb!.baseUrl).port), '127.0.0.1');
  sockets.push(socket);
  let text = '';
  let open = true;
  const watchers = new Set<() => void>();
  socket.on('data', (d) => {
    text += d;
    for (const watcher of [...watchers]) watcher();
  });
  socket.on('error', () => undefined); // a reset is what some tests wait for
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      open = false;
      for (const watcher of [...watchers]) watcher();
      resolve();
    }),
  );
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(`${[...head, 'Host: 127.0.0.1'].join('\r\n')}\r\n\r\n`);
  return {
    socket,
    received: () => text,
    answer: (pattern = /\r\n\r\n/) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) {
            watchers.delete(check);
            resolve(text);
          } else if (!open) {
            watchers.delete(check);
            reject(new Error(`closed after: ${JSON.stringify(text)}`));
          }
        };
        watchers.add(check);
        check();
      }),
    closed,
    isOpen: () => open,
  };
}

/** Writes `total` bytes in 64 KiB pieces, each once the socket took the last, until done or the connection ends. */
async function writeBody(connection: RawConnection, total: number): Promise<number> {
  const piece = Buffer.alloc(64 * 1024, 0x20);
  let written = 0;
  while (connection.isOpen() && written < total) {
    const more = connection.socket.write(piece);
    written += piece.length;
    if (!more)
      await new Promise<void>((resolve) => {
        const done = () => {
          connection.socket.off('drain', done);
          connection.socket.off('close', done);
          resolve();
        };
        connection.socket.on('drain', done);
        connection.socket.on('close', done);
      });
  }
  return written;
}

describe('a body without the key', () => {
  it('is answered 401 from the headers, before it is sent, and cut off after a little of it', async () => {
    sb = await startTestSandbox();
    const total = 89 * mib;
    const connection = await rawRequest([
      'POST /v1/prospects/import-with-field-name HTTP/1.1',
      'Content-Type: application/json',
      `Content-Length: ${total}`,
    ]);
    // Not a byte of the body has gone yet.
    const answer = await connection.answer(/\r\n\r\n\{.*\}$/s);
    expect(answer).toMatch(/^HTTP\/1\.1 401 Unauthorized\r\n/);
    expect(answer).toContain('"message":"Invalid token: the x-api-key header is missing"');
    const written = await writeBody(connection, total);
    await connection.closed;
    // What the sandbox drops, plus what the two sockets' buffers hold: a few MiB of the 89.
    expect(written).toBeGreaterThan(refusedBodyBytes);
    expect(written).toBeLessThan(16 * mib);
    expect(sb.sandbox.requestLog).toEqual([
      { method: 'POST', path: '/v1/prospects/import-with-field-name', status: 401 },
    ]);
  });

  it('with a wrong key is refused the same way, and a small one still lets the connection serve the next request', async () => {
    sb = await startTestSandbox();
    const body = JSON.stringify({ prospectList: [{ Email: 'a@x.example' }], conflictAction: 'noUpdate' });
    const connection = await rawRequest([
      'POST /v1/prospects/import-with-field-name HTTP/1.1',
      'x-api-key: sk_wrong_0000000000',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
    ]);
    expect(await connection.answer(/\}$/)).toMatch(/^HTTP\/1\.1 401 /);
    connection.socket.write(body);
    connection.socket.write(`GET /v1/unibox/categories HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${testKey}\r\n\r\n`);
    expect(await connection.answer(/HTTP\/1\.1 200 OK/)).toContain('Categories fetched successfully');
    expect(state(sb).imports).toEqual([]);
  });
});

describe('Expect: 100-continue', () => {
  it('asks for the body only with the right key', async () => {
    sb = await startTestSandbox();
    const head = (key: string) => [
      'POST /v1/prospects/import-with-field-name HTTP/1.1',
      `x-api-key: ${key}`,
      'Content-Type: application/json',
      'Content-Length: 50000000',
      'Expect: 100-continue',
    ];
    const wrong = await rawRequest(head('sk_wrong_0000000000'));
    expect(await wrong.answer(/\}$/)).toMatch(/^HTTP\/1\.1 401 /);
    const right = await rawRequest(head(testKey));
    expect(await right.answer()).toBe('HTTP/1.1 100 Continue\r\n\r\n');
  });
});

describe('report files', () => {
  async function failedSkipReport(): Promise<string> {
    const started = await sb!.request('POST', '/v1/tasks/bulk-skip', { taskIds: ['nope'] });
    await sb!.request('POST', '/_sandbox/clock', { advanceMs: 5_000 });
    const done = await sb!.request('GET', started.body.statusCheckUrl);
    return done.body.csvDownloadLink;
  }

  it('need the key, and are named by 128 random bits', async () => {
    sb = await startTestSandbox();
    const links = [await failedSkipReport(), await failedSkipReport(), await failedSkipReport()];
    const names = links.map((link) => /^\/files\/reports\/([0-9a-f]{32})\.csv$/.exec(new URL(link).pathname)?.[1]);
    expect(names.every(Boolean)).toBe(true);
    expect(new Set(names).size).toBe(3);
    // Not one counter: no two share a prefix as consecutive ids would.
    expect(new Set(names.map((name) => name!.slice(0, 8))).size).toBe(3);
    for (const link of links) {
      expect((await fetch(link)).status).toBe(401);
      expect((await fetch(link, { headers: { 'x-api-key': 'sk_wrong_0000000000' } })).status).toBe(401);
      const report = await fetch(link, { headers: { 'x-api-key': testKey } });
      expect({ status: report.status, text: await report.text() }).toEqual({
        status: 200,
        text: 'taskId,reason\nnope,task not found\n',
      });
    }
    // A guess is a 404 even with the key; the old counter-based names lead nowhere.
    const guess = await sb.request('GET', '/files/reports/bulk-aaaaaaaa.csv');
    expect(guess.status).toBe(404);
  });
});

describe('a body that trickles in', () => {
  it('is answered 408 and cut off once the deadline passes on the sandbox clock', async () => {
    sb = await startTestSandbox();
    const connection = await rawRequest([
      'POST /v1/dnc HTTP/1.1',
      `x-api-key: ${testKey}`,
      'Content-Type: application/json',
      'Content-Length: 1000',
    ]);
    connection.socket.write('{"entries":');
    await sb.bodyTimers.waitingFor(bodyDeadlineMs);
    expect(connection.received()).toBe('');
    sb.bodyTimers.elapse(bodyDeadlineMs);
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(connection.received()).toContain(
      `{"error":true,"type":"general","code":4080,"message":"The request body did not arrive within ${bodyDeadlineMs / 1000} s"}`,
    );
    expect(sb.sandbox.requestLog).toEqual([{ method: 'POST', path: '/v1/dnc', status: 408 }]);
  });

  it('cuts an upload streamed to its route, and a refused body still being dropped', async () => {
    sb = await startTestSandbox();
    const upload = await rawRequest([
      'POST /v1/attachments HTTP/1.1',
      `x-api-key: ${testKey}`,
      'Content-Type: multipart/form-data; boundary=b',
      'Content-Length: 100000',
    ]);
    upload.socket.write('--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello');
    const keyless = await rawRequest([
      'POST /v1/dnc HTTP/1.1',
      'Content-Type: application/json',
      'Content-Length: 1000',
    ]);
    await keyless.answer(/\}$/);
    keyless.socket.write('{"entries":');
    expect(sb.bodyTimers.pending()).toEqual([bodyDeadlineMs, bodyDeadlineMs]);
    sb.bodyTimers.elapse(bodyDeadlineMs);
    await Promise.all([upload.closed, keyless.closed]);
    expect(upload.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(keyless.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(keyless.received()).not.toContain('408');
  });

  it('is no concern of a request whose body arrived: its deadline is let go', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList: [{ Email: 'fresh@x.example' }],
      conflictAction: 'noUpdate',
    });
    expect(res.status).toBe(201);
    expect(sb.bodyTimers.pending()).toEqual([]);
    expect(sb.bodyTimers.requested).toEqual([bodyDeadlineMs]);
  });
});

describe('work outside the transaction', () => {
  it('delivers a webhook test after its transaction: a receiver that calls the API back is answered first', async () => {
    sb = await startTestSandbox();
    const http = await import('node:http');
    let calledBack = 0;
    // The receiver asks the sandbox for its categories before it answers the delivery.
    const receiver = http.createServer((req, res) => {
      req.resume();
      void sb!.request('GET', '/v1/unibox/categories').then((answer) => {
        calledBack = answer.status;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
    try {
      const { port } = receiver.address() as import('node:net').AddressInfo;
      const created = await sb.request('POST', '/v1/webhook/create', {
        name: 'calls back',
        webhookUrl: `http://127.0.0.1:${port}/hook`,
        webhookEvent: ['task-updated'],
        headers: {},
      });
      expect(calledBack).toBe(200);
      expect(created.status).toBe(201);
      expect(created.body.payload).toMatchObject({
        status: 'active',
        failed: false,
        testDelivery: { status: 'success' },
      });
    } finally {
      receiver.close();
    }
  });

  it('answers a task page past the end with an empty page, however far', async () => {
    sb = await startTestSandbox();
    const far = 2 ** 40;
    const res = await sb.request('GET', `/v1/tasks?page=${far}&pageSize=${far}`);
    expect(res.status).toBe(200);
    expect(res.body.payload.tasks).toEqual([]);
    expect(res.body.payload.meta.totalItems).toBe(300);
  });
});
