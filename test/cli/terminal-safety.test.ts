// Text from the service, a teammate or a webhook delivery is data (issue 27, points 5 and 6): on a terminal its
// control characters are shown, never obeyed, on stdout and stderr, in table cells before they are cut, in error
// messages and in `webhooks listen` lines; piped TSV, CSV and JSON stay exact; the API key is masked on stdout too,
// on a terminal and piped, even split across two writes. Through the real CLI against a stub service that answers
// with escape sequences.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debugHint, run } from '../helpers/run.js';
import { createTestContext } from '../helpers/context.js';
import { runCli } from '../../src/cli/run.js';
import { groups } from '../../src/commands/manifest.js';
import { guardStream, Secrets, visible } from '../../src/cli/terminal-text.js';

const title = '\x1b]0;pwned\x07';
const clear = '\x1b[2J';
const hide = '\x1b[8m';
const clipboard = '\x1b]52;c;cm0gLXJmIH4K\x07';
const csi = '\x9b2J';
const del = '\x7f';
const hostile = `Seats${title}${clear}${hide}${clipboard}${csi}${del}!`;
const hostileShown = 'Seats\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[8m\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u009b2J\\u007f!';

const key = 'sk_live_4f1c9e2a7b6d5e8f0a1b';
/** What a terminal may act on: C0 but tab and newline, DEL, C1 (ESC, BEL and CSI among them). */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

// A stub service: each path answers what the test put in `answers` (or 404 with a hostile message).
let answers: Record<string, { status?: number; body: unknown }>;
let server: Server;
let env: Record<string, string>;
beforeEach(async () => {
  answers = {};
  server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = answers[path] ?? { status: 404, body: { message: `no route ${title}${clipboard}here` } };
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  env = { OUTREACH_BASE_URL: `http://127.0.0.1:${port}`, OUTREACH_API_KEY: key };
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const terminal = { stdoutIsTTY: true, stderrIsTTY: true };
const fields = (...labels: string[]) => ({
  body: { payload: labels.map((label, i) => ({ id: `cSeats00${i + 1}`, label, fieldType: 'text' })) },
});
const webhook = {
  body: {
    payload: {
      id: 'wh1',
      name: hostile,
      webhookUrl: 'https://crm.example/hooks',
      webhookEvent: ['task-created'],
      headers: { 'X-Team': 's3cr3t' },
      status: 'active',
      failed: true,
      lastFailure: { statusCode: 500, message: `boom${title}` },
    },
  },
};

describe('on a terminal, control characters from the service are shown, never obeyed', () => {
  it('in a table cell: a field label a teammate set', async () => {
    answers['/v1/fields'] = fields(hostile);
    const result = await run(['fields', 'list', '--no-color', '--wide'], { env, ...terminal });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `ID         LABEL${' '.repeat(hostileShown.length - 5)}  TYPE\n` + `cSeats001  ${hostileShown}  text\n`,
    );
    expect(result.stdout).not.toMatch(raw);
  });

  it('in a cell cut to fit the terminal: the cut falls in the shown text, never inside a sequence', async () => {
    const label = `Seat count agreed with the renewal team ${title}${clipboard}${hide}and more words after it`;
    answers['/v1/fields'] = fields(label);
    const result = await run(['fields', 'list', '--no-color'], { env, ...terminal });
    // 100 columns: ID (9) and TYPE (4) whole, two gaps of 2, LABEL cut to 83 (82 and an ellipsis).
    const shown = visible(label);
    expect(shown.length).toBeGreaterThan(83);
    expect(result.stdout).toBe(
      `ID         LABEL${' '.repeat(78)}  TYPE\ncSeats001  ${shown.slice(0, 82).trimEnd()}…  text\n`,
    );
    expect(result.stdout).not.toMatch(raw);
  });

  it('a value keeps to its line and column: tab and newline in a cell are shown too', async () => {
    answers['/v1/fields'] = fields('Seats\tforged column\nforged row');
    const result = await run(['fields', 'list', '--no-color'], { env, ...terminal });
    expect(result.stdout.split('\n')[1]).toBe('cSeats001  Seats\\tforged column\\nforged row  text');
  });

  it('with colour on, only our own bold is an escape sequence', async () => {
    answers['/v1/fields'] = fields(hostile);
    const result = await run(['fields', 'list', '--wide'], { env, ...terminal });
    expect(result.stdout).toContain('\x1b[1mID\x1b[22m');
    expect(result.stdout).toContain(`cSeats001  ${hostileShown}  text\n`);
    expect(result.stdout.replaceAll('\x1b[1m', '').replaceAll('\x1b[22m', '')).not.toMatch(raw);
  });

  it('in a record: a webhook name and its last failure', async () => {
    answers['/v1/webhook/wh1'] = webhook;
    const result = await run(['webhooks', 'get', 'wh1', '--no-color'], { env, ...terminal });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`\nNAME          ${hostileShown}\n`);
    expect(result.stdout).toContain('\nLAST FAILURE  HTTP 500, boom\\u001b]0;pwned\\u0007\n');
    expect(result.stdout).not.toMatch(raw);
  });

  it('in an error message on stderr', async () => {
    answers['/v1/fields'] = { status: 422, body: { message: `label ${title}${clipboard}${csi}taken` } };
    const result = await run(['fields', 'list'], { env, ...terminal });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: label \\u001b]0;pwned\\u0007\\u001b]52;c;cm0gLXJmIH4K\\u0007\\u009b2Jtaken (GET /v1/fields: HTTP 422)\n' +
        debugHint,
    );
  });

  it('in an error message on stderr piped too: 2>&1 | tee log reaches a terminal all the same', async () => {
    answers['/v1/fields'] = { status: 422, body: { message: `label ${title}taken` } };
    const result = await run(['fields', 'list'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: label \\u001b]0;pwned\\u0007taken (GET /v1/fields: HTTP 422)\n' + debugHint);
  });

  it('in --json on a terminal: still valid JSON with the same data, DEL and C1 written as \\u escapes', async () => {
    answers['/v1/fields'] = fields(hostile);
    const result = await run(['fields', 'list', '--json'], { env, ...terminal });
    expect(result.stdout).not.toMatch(raw);
    expect(result.stdout).toContain('\\u009b2J\\u007f!');
    expect(JSON.parse(result.stdout)).toEqual(fields(hostile).body.payload);
  });
});

describe('piped, output is exact data', () => {
  it('TSV, CSV and JSON keep every byte the service sent', async () => {
    answers['/v1/fields'] = fields(hostile);
    const tsv = await run(['fields', 'list'], { env });
    expect(tsv.stdout).toBe(`cSeats001\t${hostile}\ttext\n`);
    const csv = await run(['fields', 'list', '--csv'], { env });
    expect(csv.stdout).toContain(`cSeats001,${hostile},text`);
    const json = await run(['fields', 'list', '--json'], { env });
    expect(json.stdout).toBe(`${JSON.stringify(fields(hostile).body.payload, null, 2)}\n`);
    expect(json.stdout).toContain(`${csi}${del}!`);
  });
});

describe('the API key is masked on stdout too', () => {
  const echoed = `key is ${key}, keep it`;

  it('on a terminal, piped, and in JSON', async () => {
    answers['/v1/fields'] = fields(echoed);
    const table = await run(['fields', 'list', '--no-color'], { env, ...terminal });
    expect(table.stdout).toContain('cSeats001  key is ***, keep it  text\n');
    const tsv = await run(['fields', 'list'], { env });
    expect(tsv.stdout).toBe('cSeats001\tkey is ***, keep it\ttext\n');
    const json = await run(['fields', 'list', '--json'], { env });
    expect(JSON.parse(json.stdout)[0].label).toBe('key is ***, keep it');
    const ndjson = await run(['fields', 'list', '--ndjson'], { env });
    expect(ndjson.stdout).not.toContain(key);
  });

  it('and on stderr, on a terminal or not', async () => {
    answers['/v1/fields'] = { status: 400, body: { message: echoed } };
    for (const options of [{ env }, { env, ...terminal }]) {
      const result = await run(['fields', 'list'], options);
      expect(result.stderr).toBe('error: key is ***, keep it (GET /v1/fields: HTTP 400)\n' + debugHint);
    }
  });
});

/** A stream that keeps what reaches it, write by write. */
class Capture extends Writable {
  text = '';
  chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: string, callback: () => void): void {
    this.chunks.push(chunk);
    this.text += chunk.toString();
    this.emit('text');
    callback();
  }
  /** Resolves once the text matches (each write is looked at; no timer). */
  async waitFor(pattern: RegExp): Promise<RegExpExecArray> {
    for (;;) {
      const match = pattern.exec(this.text);
      if (match) return match;
      await once(this, 'text');
    }
  }
}

describe('the output guard', () => {
  const guarded = (secret: string, terminal = false) => {
    const sink = new Capture();
    const secrets = new Secrets();
    secrets.add(secret);
    return { sink, ...guardStream(sink, secrets, terminal) };
  };

  it('masks a key split across two writes, and holds back no more than a key could begin with', () => {
    const { sink, stream, flush } = guarded(key);
    stream.write(`row 1 ${key.slice(0, 9)}`);
    expect(sink.text).toBe('row 1 ');
    stream.write(`${key.slice(9)} row 2\n`);
    expect(sink.text).toBe('row 1 *** row 2\n');
    stream.write('sk_li'); // the start of a key, until the next write says otherwise
    stream.write('ve is a prefix\n');
    stream.write(Buffer.from(`bytes ${key}\nsk_`));
    flush();
    expect(sink.text).toBe('row 1 *** row 2\nsk_live is a prefix\nbytes ***\nsk_');
  });

  it('a short key is masked only where it stands alone, as on stderr', () => {
    const { sink, stream, flush } = guarded('x');
    stream.write('GET /v1/unibox x\n');
    stream.write('x');
    stream.write('y x');
    flush();
    expect(sink.text).toBe('GET /v1/unibox ***\nxy ***');
    expect(new Secrets().redact('x')).toBe('x');
  });

  it('piped with no key to mask, a write passes as it is', () => {
    const sink = new Capture();
    const { stream } = guardStream(sink, new Secrets(), false);
    const bytes = Buffer.from([0x1b, 0x9b, 0xff, 0x00]);
    stream.write(bytes);
    expect(sink.chunks).toEqual([bytes]);
  });

  it('shows each control character one way: as a JSON string writes it', () => {
    expect(visible('\x00\x07\b\t\n\f\r\x1b\x7f\x80\x9b\x9f é')).toBe(
      '\\u0000\\u0007\\b\\t\\n\\f\\r\\u001b\\u007f\\u0080\\u009b\\u009f é',
    );
    expect(visible('a\tb\nc\x1b', { lines: true })).toBe('a\tb\nc\\u001b');
    // Bidirectional overrides and isolates, which show text reversed or move what follows.
    expect(visible('list\u202eelif\u2066x\u2069')).toBe('list\\u202eelif\\u2066x\\u2069');
  });

  it('on a terminal, a byte sequence split across writes is decoded whole; a stray C1 byte is not passed on', () => {
    const { sink, stream } = guarded('unused-secret-value', true);
    const text = Buffer.from(`é${csi}`);
    stream.write(text.subarray(0, 1));
    stream.write(text.subarray(1));
    stream.write(Buffer.from([0x9b, 0x32, 0x4a, 0x0a]));
    expect(sink.text).toBe('é\\u009b2J\ufffd2J\n');
  });
});

describe('webhooks listen', () => {
  /** Runs `webhooks listen` in-process until the test has seen `lines` lines on stdout, then Ctrl-C. */
  async function listen(argv: string[], tty: boolean, deliveries: Buffer[], lines: number) {
    const captured = createTestContext({ stdoutIsTTY: tty, stderrIsTTY: tty });
    const out = new Capture();
    const err = new Capture();
    captured.ctx.stdout = out;
    captured.ctx.stderr = err;
    const exit = runCli(captured.ctx, ['webhooks', 'listen', '--port', '0', ...argv], groups);
    const [, port] = await err.waitFor(/Listening on http:\/\/127\.0\.0\.1:(\d+)\//);
    for (const delivery of deliveries) {
      const socket = connect(Number(port), '127.0.0.1');
      socket.end(delivery);
      socket.resume();
      await once(socket, 'close');
    }
    await out.waitFor(new RegExp(`(?:[^\\n]*\\n){${lines}}`));
    captured.abort();
    return { code: await exit, stdout: out.text, stderr: err.text };
  }

  const body = JSON.stringify({
    event: `task-created${title}`,
    webhook: { id: 'wh1', name: `dev${clear}\tforged\nline${csi}` },
  });
  /** A delivery without the expected header, with a C1 byte (0x9b, CSI) in a header value. */
  const refused = Buffer.concat([
    Buffer.from('POST /hooks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Note: '),
    Buffer.from([0x9b, 0x32, 0x4a]),
    Buffer.from(`\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`),
  ]);
  const argv = ['--expect-header', 'X-Secret: s3cr3t'];
  const time = /^\d\d:\d\d:\d\d$/;

  it('on a terminal, a delivery refused with 401 is printed with its control characters shown', async () => {
    const result = await listen(argv, true, [refused], 1);
    expect(result.code).toBe(0);
    const [at, ...rest] = result.stdout.slice(0, -1).split('\t');
    expect(at).toMatch(time);
    expect(rest).toEqual([
      'task-created\\u001b]0;pwned\\u0007',
      'dev\\u001b[2J\\tforged\\nline\\u009b2J',
      'refused 401: header x-secret missing',
    ]);
    expect(result.stdout).not.toMatch(raw);
    expect(result.stderr).not.toMatch(raw);
  });

  it('--json on a terminal: its headers and body with control characters as \\u escapes, the same data', async () => {
    const result = await listen([...argv, '--json'], true, [refused], 1);
    expect(result.stdout).not.toMatch(raw);
    const delivery = JSON.parse(result.stdout);
    expect(delivery.headers['x-note']).toBe(`${csi}`);
    expect(delivery.body).toEqual(JSON.parse(body));
    expect(delivery.rejected).toBe('header x-secret missing');
  });

  it('piped, the line is data as sent, tabs and newlines as spaces so it stays one line of four fields', async () => {
    const result = await listen(argv, false, [refused], 1);
    const [, ...rest] = result.stdout.slice(0, -1).split('\t');
    expect(rest).toEqual([
      `task-created${title}`,
      `dev${clear} forged line${csi}`,
      'refused 401: header x-secret missing',
    ]);
  });
});
