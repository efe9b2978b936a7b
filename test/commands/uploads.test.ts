// domains upload-picture and attachments upload through the real CLI against the in-process sandbox: checks before
// sending, multipart streamed both ways, the sandbox's type and size rules.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { testHttpClient } from '../helpers/http-client.js';
import { attachmentsEndpoints } from '../../src/api/contract/attachments.js';
import { uploadFile } from '../../src/api/resources/uploads.js';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let dir: string;
beforeEach(async () => {
  sb = await startTestSandbox();
  dir = tempDir('outreach-uploads-');
});
afterEach(() => sb.close());

const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 1)]);
const put = (name: string, bytes: Buffer | string) => writeFileSync(join(dir, name), bytes);
const cli = (argv: string[]) => run(argv, { env: sb.env, cwd: dir });
const posts = (path: string) => sb.sandbox.requestLog.filter((r) => r.method === 'POST' && r.path === path);

describe('domains upload-picture', () => {
  it('uploads a PNG and prints its numeric id, with how to use it', async () => {
    put('alice.png', png);
    const result = await cli(['domains', 'upload-picture', 'alice.png']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\d+\n$/);
    const id = result.stdout.trim();
    expect(result.stderr).toBe(
      `Uploaded alice.png: picture id ${id}. Use it as "profilePicId": ${id} for a mailbox in a domain purchase.\n`,
    );
  });

  it('checks type by content and size before sending (exit 2)', async () => {
    put('fake.png', 'not an image at all');
    put('big.gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(2 ** 20)]));
    put('empty.jpg', '');
    for (const [file, message] of [
      ['fake.png', 'error: fake.png: is not a PNG, JPG or GIF image (judged by its content)'],
      ['big.gif', 'error: big.gif: is 1,048,582 bytes; the service takes at most 1,048,576 (1 MB)'],
      ['empty.jpg', 'error: empty.jpg: is empty'],
      ['missing.png', 'error: missing.png: no such file'],
    ]) {
      const result = await cli(['domains', 'upload-picture', file!]);
      expect({ file, code: result.code, line: result.stderr.split('\n')[0] }).toEqual({ file, code: 2, line: message });
    }
    expect(posts('/v1/domain/profile-picture/upload')).toEqual([]);
  });

  it('the sandbox refuses a wrong type or an oversize picture with 415, reading it as a stream', async () => {
    const form = (bytes: Buffer) => {
      const data = new FormData();
      data.set('file', new Blob([bytes]), 'x.png');
      return data;
    };
    for (const bytes of [Buffer.from('plain text'), Buffer.concat([png, Buffer.alloc(2 ** 20)])]) {
      const answer = await fetch(`${sb.baseUrl}/v1/domain/profile-picture/upload`, {
        method: 'POST',
        headers: { 'x-api-key': sb.key },
        body: form(bytes),
      });
      expect(answer.status).toBe(415);
    }
  });
});

describe('attachments upload', () => {
  it('streams a 15 MB attachment and prints path and id; --json gives objects', async () => {
    put('brochure.pdf', Buffer.alloc(15 * 2 ** 20, 0x25));
    put('notes.txt', 'call notes');
    const result = await cli(['attachments', 'upload', 'brochure.pdf', 'notes.txt']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^brochure\.pdf\t\w+\nnotes\.txt\t\w+\n$/);
    const json = await cli(['attachments', 'upload', 'notes.txt', '--notes', '--json']);
    expect(JSON.parse(json.stdout)).toEqual([{ file: 'notes.txt', id: expect.any(String) }]);
    expect(posts('/v1/notes/attachments')).toHaveLength(1);
  });

  it('checks every file before sending any: missing, empty, too large, a folder (exit 2)', async () => {
    put('ok.txt', 'fine');
    put('empty.txt', '');
    put('huge.bin', Buffer.alloc(20 * 2 ** 20 + 1));
    mkdirSync(join(dir, 'folder'));
    const result = await cli([
      'attachments',
      'upload',
      'ok.txt',
      'empty.txt',
      'gone.txt',
      'huge.bin',
      'folder',
      '--notes',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: empty.txt: is empty; gone.txt: no such file; huge.bin: is 20,971,521 bytes; the service takes at most 20,971,520 (20 MB); ' +
        'folder: is a folder or a device, not a file\nhint: Nothing was sent.\n',
    );
    expect(posts('/v1/notes/attachments')).toEqual([]);
  });

  it('goes on after a file the service refuses, and exits 3 naming it', async () => {
    put('tool.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]));
    put('ok.txt', 'fine');
    const result = await cli(['attachments', 'upload', 'tool.exe', 'ok.txt', '--notes']);
    expect(result.code).toBe(3);
    expect(result.stdout).toMatch(/^ok\.txt\t\w+\n$/);
    expect(result.stderr).toBe(
      'tool.exe: This type of file cannot be attached to a note (POST /v1/notes/attachments: HTTP 400, code 4001)\n',
    );
  });
});

describe('upload memory', () => {
  it('streams a file from disk: memory grows far less than the file', async () => {
    // 100 MB on disk, written in pieces so the test itself never holds it.
    const path = join(dir, 'big.bin');
    const fd = openSync(path, 'w');
    const piece = Buffer.alloc(2 ** 20, 7);
    for (let i = 0; i < 100; i++) writeSync(fd, piece);
    closeSync(fd);
    // A server on loopback that reads and drops the body, then answers with an id.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"payload":{"id":"a1"}}'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const http = testHttpClient(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
    try {
      expect(await uploadFile(http, attachmentsEndpoints.upload, path)).toEqual({ id: 'a1' });
    } finally {
      clearInterval(sample);
      await http.close();
      server.close();
    }
    // Holding the file would take 100 MB (twice that with a copy); streaming stays within buffers and GC lag.
    if (process.env.SHOW_UPLOAD_MEMORY) console.log(`peak growth ${((peak - before) / 2 ** 20).toFixed(1)} MB`);
    expect((peak - before) / 2 ** 20).toBeLessThan(80);
  });
});
