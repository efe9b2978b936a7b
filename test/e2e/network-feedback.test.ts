// Waiting and failing as a person sees it: a spinner on a terminal while a request takes a while (never when piped or
// under --json), and failures that will not get better are said at once, in words, without retries.
import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { cleanEnv, runBin, runInTerminal } from '../helpers/spawn.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { tempDir } from '../helpers/context.js';

const tlsFixture = (name: string) => fileURLToPath(new URL(`../../fixtures/tls/${name}`, import.meta.url));

let sb: TestSandbox | undefined;
let proxy: FaultProxy | undefined;
const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  proxy?.release();
  await proxy?.close();
  await sb?.close();
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) server.close();
  proxy = sb = undefined;
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: Socket) => sockets.push(socket));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

describe('a spinner while waiting', () => {
  it('says what a request waits for on a terminal, once it takes a while', async () => {
    sb = await startTestSandbox();
    proxy = await startFaultProxy(sb.baseUrl, () => 'hold');
    const env = cleanEnv({ OUTREACH_CONFIG_DIR: tempDir(), OUTREACH_BASE_URL: proxy.baseUrl, NO_COLOR: '1' });
    env.OUTREACH_API_KEY = sb.env.OUTREACH_API_KEY!;
    // The answer is held until the spinner has been drawn: the test waits on what the terminal shows, not on a clock.
    const { code, output } = await runInTerminal(['inbox', 'categories'], {
      env,
      columns: 100,
      onOutput: (soFar) => {
        if (soFar.includes(`waiting for ${new URL(proxy!.baseUrl).host}: GET /v1/unibox/categories`)) proxy!.release();
      },
    });
    expect(code).toBe(0);
    expect(output).toMatch(/KEY +NAME +DEFAULT +SENTIMENT\nuncategorized +Uncategorized +yes +Neutral\n/);
  });

  it('says "connecting" while a host has not accepted the connection', async () => {
    // Takes the TCP connection and never starts TLS; once the terminal shows the spinner, the test drops it (the
    // connect timeout is far off: the test, not a timer, ends the wait).
    const port = await listen(createTcpServer(() => undefined));
    const env = cleanEnv({
      OUTREACH_CONFIG_DIR: tempDir(),
      OUTREACH_BASE_URL: `https://127.0.0.1:${port}`,
      OUTREACH_API_KEY: 'sk_test_silent_0002',
      NO_COLOR: '1',
    });
    const { code, output } = await runInTerminal(
      ['--connect-timeout', '60', '--max-retries', '0', 'inbox', 'categories'],
      {
        env,
        columns: 100,
        onOutput: (soFar) => {
          if (soFar.includes(`connecting to 127.0.0.1:${port}`)) for (const socket of sockets) socket.destroy();
        },
      },
    );
    expect(code).toBe(1);
    expect(output).toContain(`connecting to 127.0.0.1:${port}`);
    expect(output).toContain(
      `error: GET /v1/unibox/categories failed: connection closed by the server (https://127.0.0.1:${port})\n` +
        'hint: Check the base URL (`outreach auth status`) and your connection; --debug shows each attempt.\n',
    );
  });

  it('draws nothing when stderr is piped, or under --json, while a terminal shows a spinner for the same wait', async () => {
    sb = await startTestSandbox();
    proxy = await startFaultProxy(sb.baseUrl, () => 'hold');
    const env = cleanEnv({
      OUTREACH_CONFIG_DIR: tempDir(),
      ...sb.env,
      OUTREACH_BASE_URL: proxy.baseUrl,
      NO_COLOR: '1',
    });
    const piped = runBin(['inbox', 'categories'], { env });
    const json = runInTerminal(['inbox', 'categories', '--json'], { env, columns: 100 });
    await proxy.held(2);
    // A third run, on a terminal, draws its spinner once its own wait has passed half a second; the two above have
    // waited longer by then. The answers are held until that spinner is on its terminal: no clock in the test.
    const spinner = `waiting for ${new URL(proxy.baseUrl).host}: GET /v1/unibox/categories`;
    const witness = await runInTerminal(['inbox', 'categories'], {
      env,
      columns: 100,
      onOutput: (soFar) => {
        if (soFar.includes(spinner)) proxy!.release();
      },
    });
    expect(witness.code).toBe(0);
    expect(witness.output).toContain(spinner);
    const table = await piped;
    expect({ code: table.code, stderr: table.stderr }).toEqual({ code: 0, stderr: '' });
    expect(table.stdout.split('\n')[0]).toBe('uncategorized\tUncategorized\tyes\tNeutral');
    const shown = await json;
    expect(shown.code).toBe(0);
    // The terminal shows the JSON and nothing else: no spinner, no status line.
    expect(JSON.parse(shown.output)[0].key).toBe('uncategorized');
    expect(shown.output).not.toContain('waiting for');
  });
});

describe('failures that retrying cannot fix', () => {
  it('a certificate for another host: one try, said in words', async () => {
    const server = createTlsServer({
      key: readFileSync(tlsFixture('api.example.com.key')),
      cert: readFileSync(tlsFixture('api.example.com.crt')),
    });
    let handshakes = 0;
    // The server's own account of the handshake may be handled after the client has ended: it is waited for.
    const shaken = new Promise((resolve) => {
      server.on('secureConnection', () => resolve(++handshakes));
      server.on('tlsClientError', () => resolve(++handshakes));
    });
    const port = await listen(server);
    const env = cleanEnv({
      OUTREACH_CONFIG_DIR: tempDir(),
      OUTREACH_BASE_URL: `https://127.0.0.1:${port}`,
      OUTREACH_API_KEY: 'sk_test_tls_0001',
      // Trusted, so that the only fault left is the name.
      NODE_EXTRA_CA_CERTS: tlsFixture('api.example.com.crt'),
    });
    const result = await runBin(['inbox', 'categories'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: GET /v1/unibox/categories failed: the TLS certificate of 127.0.0.1:${port} is not valid for that name ` +
        '(ERR_TLS_CERT_ALTNAME_INVALID)\n' +
        'hint: Check the base URL (set by OUTREACH_BASE_URL): is the host name right? A proxy that intercepts TLS ' +
        'shows its own certificate.\n',
    );
    await shaken;
    expect(handshakes).toBe(1);
  });

  it('a host that accepts no connection fails after --connect-timeout, naming the host and the flag', async () => {
    // Takes the TCP connection and never starts TLS: to the client, a host that does not answer.
    const server = createTcpServer(() => undefined);
    const port = await listen(server);
    const accepted = once(server, 'connection'); // may be handled after the client has ended: waited for
    const env = cleanEnv({
      OUTREACH_CONFIG_DIR: tempDir(),
      OUTREACH_BASE_URL: `https://127.0.0.1:${port}`,
      OUTREACH_API_KEY: 'sk_test_silent_0001',
    });
    const result = await runBin(['--connect-timeout', '0.2', 'inbox', 'categories'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: GET /v1/unibox/categories failed: 127.0.0.1:${port} did not answer within 0.2s (--connect-timeout)\n` +
        'hint: Check the base URL (set by OUTREACH_BASE_URL) and your network; raise --connect-timeout if the ' +
        'service is only slow to connect.\n',
    );
    await accepted;
    expect(sockets).toHaveLength(1);
  });
});
