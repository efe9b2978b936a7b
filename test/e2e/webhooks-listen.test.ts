// `outreach webhooks listen` as a user runs it, against `outreach sandbox start`: it registers a webhook that points
// at itself, receives the test delivery and the events of a bulk skip, refuses deliveries without its secret header,
// forwards to a handler (giving up on one that hangs), and stops on Ctrl-C with a count. Every wait is for output
// or an arrival, never a timer of the test's.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { binPath, cleanEnv, runBin, startSandboxProcess, type SandboxProcess } from '../helpers/spawn.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

interface Listener {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves once stdout or stderr contains the text (each new chunk of output is looked at). */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp): Promise<RegExpExecArray>;
}

function startListener(argv: string[], env: Record<string, string>): Listener {
  const child = spawn(process.execPath, [binPath, 'webhooks', 'listen', ...argv], { env });
  const text = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (text.stdout += d));
  child.stderr.on('data', (d) => (text.stderr += d));
  return {
    child,
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    waitFor: (stream, pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text[stream]);
          if (!match) return false;
          child[stream].off('data', onData);
          child.off('exit', onExit);
          resolve(match);
          return true;
        };
        const onData = () => void check();
        const onExit = () => {
          if (!check()) reject(new Error(`listen exited; stderr: ${text.stderr}`));
        };
        if (check()) return;
        child[stream].on('data', onData);
        child.once('exit', onExit);
      }),
  };
}

let sandbox: SandboxProcess | undefined;
let listener: Listener | undefined;
let handler: Receiver | undefined;
afterEach(async () => {
  if (listener && listener.child.exitCode === null) {
    listener.child.kill('SIGKILL');
    await once(listener.child, 'close');
  }
  await handler?.close();
  if (sandbox?.child.exitCode === null) await sandbox.stop();
  sandbox = listener = handler = undefined;
});

async function setUp(): Promise<Record<string, string>> {
  const dir = tempDir();
  sandbox = await startSandboxProcess(['--key', 'sk_listen_test_12345'], cleanEnv({ OUTREACH_CONFIG_DIR: dir }));
  return cleanEnv({ OUTREACH_CONFIG_DIR: dir, OUTREACH_BASE_URL: sandbox.baseUrl, OUTREACH_API_KEY: sandbox.key });
}

describe('webhooks listen', () => {
  it('creates a webhook to itself, prints the test delivery and a bulk skip, refuses a forged one, stops on Ctrl-C', async () => {
    const env = await setUp();
    listener = startListener(['--port', '0', '--create', '--name', 'dev', '--event', 'task-*', '--json'], env);
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const [, id] = await listener.waitFor(
      'stderr',
      /^Created webhook (\w+) \(dev\) -> \S+: .*; test delivery success\.$/m,
    );
    const skipped = await runBin(['tasks', 'bulk-skip', 'tk000001', 'tk000002', '--yes'], { env });
    expect(skipped.code).toBe(0);
    await listener.waitFor('stdout', /"event":"bulk-task-updated"/);

    const forged = await fetch(url!, { method: 'POST', body: JSON.stringify({ event: 'task-updated' }) });
    expect(forged.status).toBe(401);
    await listener.waitFor('stdout', /"rejected":"header x-outreach-listen-secret missing"/);

    listener.child.kill('SIGINT');
    const [code] = await once(listener.child, 'close');
    expect(code).toBe(0);
    const deliveries = listener
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(deliveries.map((d) => d.event)).toEqual(['test', 'bulk-task-updated', 'task-updated']);
    expect(deliveries[1].body).toMatchObject({ taskIds: ['tk000001', 'tk000002'], webhook: { id, name: 'dev' } });
    // The secret the receiver checks is masked in what it prints (--show-secrets prints it).
    expect(deliveries[1].headers['x-outreach-listen-secret']).toBe('***');
    expect(listener.stderr()).toContain(
      `Stopped: 3 deliveries received, 1 refused.\nWebhook ${id} still points at ${url}: pause or delete it in the web ` +
        'app (the API cannot update or delete webhooks).\n',
    );
  });

  it('forwards to a handler and prints its answer', async () => {
    const env = await setUp();
    handler = await startReceiver(202);
    listener = startListener(['--port', '0', '--forward-to', handler.url], env);
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const posted = await fetch(url!, {
      method: 'POST',
      headers: { 'x-team': 'ops' },
      body: JSON.stringify({ event: 'email-sent' }),
    });
    expect(posted.status).toBe(200);
    await listener.waitFor('stdout', /\temail-sent\t\t200\tforwarded: 202\n/);
    expect(handler.deliveries[0]).toMatchObject({ headers: { 'x-team': 'ops' }, body: { event: 'email-sent' } });
  });

  it('gives up on a handler that never answers at --forward-timeout', async () => {
    const env = await setUp();
    // The handler never answers, so the listener's own deadline is the only way the forward can end.
    handler = await startReceiver('hang');
    listener = startListener(['--port', '0', '--forward-to', handler.url, '--forward-timeout', '0.2'], env);
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const posted = await fetch(url!, { method: 'POST', body: JSON.stringify({ event: 'email-opened' }) });
    expect(posted.status).toBe(200);
    await listener.waitFor('stdout', /\temail-opened\t\t200\tforward failed: no answer within 0.2s\n/);
  });

  it('a port in use is exit 2 with what to do', async () => {
    const env = await setUp();
    const port = new URL(sandbox!.baseUrl).port;
    const result = await runBin(['webhooks', 'listen', '--port', port], { env });
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `error: port ${port} on 127.0.0.1 is in use\nhint: Choose another with --port (--port 0 picks a free one).\n`,
    });
  });
});

describe('webhooks listen against hostile or unusual senders (issue 27 item 13)', () => {
  const localEnv = () => cleanEnv({ OUTREACH_CONFIG_DIR: tempDir() });

  /** A POST through node:http, so the test chooses the framing: chunked, keep-alive, hop-by-hop headers. */
  function post(url: string, headers: Record<string, string>, pieces: string[], agent?: Agent): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      for (const piece of pieces) req.write(piece);
      req.end();
    });
  }

  it('forwards a chunked keep-alive delivery, without its hop-by-hop headers', async () => {
    handler = await startReceiver(202);
    listener = startListener(['--port', '0', '--forward-to', handler.url], localEnv());
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const agent = new Agent({ keepAlive: true });
    try {
      const headers = {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
        connection: 'keep-alive, x-hop',
        'keep-alive': 'timeout=5',
        te: 'trailers',
        'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
        'x-hop': 'named by Connection',
        'x-team': 'ops',
      };
      const first = post(url!, headers, ['{"event":"email-sent",', '"eventId":"e1"}'], agent);
      expect(await first).toBe(200);
      await listener.waitFor('stdout', /\temail-sent\t\t200\tforwarded: 202\n/);
      // A second delivery on the same connection goes too.
      expect(await post(url!, headers, ['{"event":"email-opened","eventId":"e2"}'], agent)).toBe(200);
      await listener.waitFor('stdout', /\temail-opened\t\t200\tforwarded: 202\n/);
    } finally {
      agent.destroy();
    }
    expect(handler.deliveries.map((d) => d.body)).toEqual([
      { event: 'email-sent', eventId: 'e1' },
      { event: 'email-opened', eventId: 'e2' },
    ]);
    const sent = handler.deliveries[0]!.headers;
    expect(sent['x-team']).toBe('ops');
    for (const name of ['transfer-encoding', 'keep-alive', 'te', 'proxy-authorization', 'x-hop'])
      expect(sent[name], name).toBeUndefined();
    expect(sent['content-length']).toBe(String('{"event":"email-sent","eventId":"e1"}'.length));
  });

  it('shows a delivery whose eventId it has seen as a replay, and forwards it once', async () => {
    handler = await startReceiver(200);
    listener = startListener(['--port', '0', '--forward-to', handler.url], localEnv());
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const delivery = JSON.stringify({ event: 'task-updated', eventId: 'evt_7', webhook: { id: 'wh1', name: 'dev' } });
    expect(await post(url!, {}, [delivery])).toBe(200);
    await listener.waitFor('stdout', /\ttask-updated\tdev\t200\tforwarded: 200\n/);
    // The sender did not hear the first answer and sends it again: told 200, not forwarded twice.
    expect(await post(url!, {}, [delivery])).toBe(200);
    await listener.waitFor('stdout', /\ttask-updated\tdev\treplay \(eventId seen before\): not forwarded\n/);
    // The same eventId from another webhook is another delivery.
    const other = JSON.stringify({ event: 'task-updated', eventId: 'evt_7', webhook: { id: 'wh2', name: 'ops' } });
    expect(await post(url!, {}, [other])).toBe(200);
    await listener.waitFor('stdout', /\ttask-updated\tops\t200\tforwarded: 200\n/);
    // A resend with a space added to the ids is the same event.
    const spaced = JSON.stringify({ event: 'task-updated', eventId: 'evt_7 ', webhook: { id: 'wh1 ', name: 'dev' } });
    expect(await post(url!, {}, [spaced])).toBe(200);
    await listener.waitFor('stdout', /(replay \(eventId seen before\): not forwarded\n[^]*){2}/);
    expect(handler.deliveries.map((d) => d.body.webhook.id)).toEqual(['wh1', 'wh2']);
    listener.child.kill('SIGINT');
    await once(listener.child, 'close');
    expect(listener.stderr()).toContain('Stopped: 4 deliveries received, 2 replayed.\n');
  });

  it('refuses a wrong --expect-header value with 401, and a refused delivery does not make the real one a replay', async () => {
    handler = await startReceiver(200);
    listener = startListener(
      ['--port', '0', '--expect-header', 'X-Secret: s3cr3t-value', '--forward-to', handler.url],
      localEnv(),
    );
    const [, url] = await listener.waitFor('stderr', /^Listening on (\S+) /m);
    const delivery = JSON.stringify({ event: 'email-sent', eventId: 'e9' });
    expect(await post(url!, { 'x-secret': 's3cr3t-valuX' }, [delivery])).toBe(401);
    await listener.waitFor('stdout', /\temail-sent\t\trefused 401: header x-secret wrong\n/);
    expect(await post(url!, { 'x-secret': 's3cr3t' }, [delivery])).toBe(401);
    expect(await post(url!, { 'x-secret': 's3cr3t-value' }, [delivery])).toBe(200);
    await listener.waitFor('stdout', /\temail-sent\t\t200\tforwarded: 200\n/);
    expect(handler.deliveries).toHaveLength(1);
  });

  it('warns when it listens beyond loopback without --expect-header', async () => {
    // An address of no machine here (TEST-NET-1): the warning comes before binding, which then fails; nothing listens.
    const bare = await runBin(['webhooks', 'listen', '--port', '0', '--host', '192.0.2.1'], { env: localEnv() });
    expect(bare.stderr).toBe(
      'warning: listening on 192.0.2.1 without --expect-header: anyone who can reach it can send deliveries that are printed\n' +
        'error: 192.0.2.1 is not an address of this machine\nhint: Give one of its addresses with --host.\n',
    );
    const checked = await runBin(
      ['webhooks', 'listen', '--port', '0', '--host', '192.0.2.1', '--expect-header', 'X-Secret: s3cr3t'],
      { env: localEnv() },
    );
    expect(checked.stderr).not.toContain('warning');
    expect(checked.code).toBe(2);
    // A header with no value is no secret: any sender adding it would pass.
    const empty = await runBin(['webhooks', 'listen', '--port', '0', '--expect-header', 'X-Secret: '], {
      env: localEnv(),
    });
    expect(empty).toMatchObject({
      code: 2,
      stderr:
        'error: --expect-header "X-Secret": give the value the sender must send\n' +
        'hint: Nothing was changed. Add --help to the command to see what it takes.\n',
    });
  });
});
