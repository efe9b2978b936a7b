// domains upload-picture and attachments upload through the real CLI against the in-process sandbox: checks before
// sending, multipart streamed both ways, the sandbox's type and size rules.
import busboy from 'busboy';
import { createHash } from 'node:crypto';
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
      'error: 1 of 2 file(s) not uploaded: tool.exe: This type of file cannot be attached to a note (POST ' +
        '/v1/notes/attachments: HTTP 400, code 4001)\nhint: Fix those files (type, size) and upload them again.\n',
    );
  });
});

describe('uploads from disk', () => {
  // Memory staying flat whatever the file's size is measured by `npm run bench:uploads`, not here.
  it('sends the file from disk in the multipart field `file`, byte for byte, and returns the id', async () => {
    // 3 MiB of varied bytes, written in pieces: many more than one read of the file, never held by the test.
    const path = join(dir, 'big.bin');
    const fd = openSync(path, 'w');
    const sent = createHash('sha256');
    for (let i = 0; i < 48; i++) {
      const piece = Buffer.alloc(2 ** 16, i);
      sent.update(piece);
      writeSync(fd, piece);
    }
    closeSync(fd);
    // A server on loopback that reads the multipart body as a stream, keeping only a digest of each part.
    const parts: Array<{ field: string; filename: string | undefined; bytes: number; sha256: string }> = [];
    const server = createServer((req, res) => {
      const form = busboy({ headers: req.headers });
      form.on('file', (field, stream, info) => {
        const digest = createHash('sha256');
        let bytes = 0;
        stream.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          digest.update(chunk);
        });
        stream.on('end', () => parts.push({ field, filename: info.filename, bytes, sha256: digest.digest('hex') }));
      });
      form.on('close', () => res.writeHead(201, { 'content-type': 'application/json' }).end('{"payload":{"id":"a1"}}'));
      req.pipe(form);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const http = testHttpClient(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    try {
      expect(await uploadFile(http, attachmentsEndpoints.upload, path)).toEqual({ id: 'a1' });
    } finally {
      await http.close();
      server.close();
    }
    expect(parts).toEqual([{ field: 'file', filename: 'big.bin', bytes: 3 * 2 ** 20, sha256: sent.digest('hex') }]);
  });
});
