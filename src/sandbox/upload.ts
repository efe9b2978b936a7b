// Multipart uploads as the service takes them: one `file` part, read as a stream by busboy (a well-kept parser, not
// hand-split boundaries), never held in memory: the sandbox keeps the size, the first bytes (to tell the type by
// content) and a hash. A file past the limit is refused as soon as it passes it.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { SandboxError } from './sandbox-error.js';

export interface Upload {
  filename: string;
  size: number;
  /** The first 16 bytes, for the type. */
  head: Buffer;
  sha256: string;
}

export function readUpload(req: IncomingMessage, maxBytes: number, tooLarge: () => SandboxError): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: maxBytes, files: 1 } });
    } catch {
      reject(new SandboxError(400, 4000, 'Expected multipart/form-data with a file part'));
      return;
    }
    let upload: Upload | undefined;
    let overLimit = false;
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') return void stream.resume();
      const hash = createHash('sha256');
      let head = Buffer.alloc(0);
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
        hash.update(chunk);
      });
      stream.on('limit', () => (overLimit = true));
      stream.on('end', () => (upload = { filename: info.filename ?? '', size, head, sha256: hash.digest('hex') }));
    });
    parser.on('error', () => reject(new SandboxError(400, 4000, 'The multipart body cannot be read')));
    parser.on('close', () => {
      if (overLimit) return reject(tooLarge());
      if (!upload) return reject(new SandboxError(400, 4000, 'No file: send it as the multipart field "file"'));
      resolve(upload);
    });
    // A connection cut before the body's end (the body deadline) ends the upload too: busboy would wait for ever.
    req.once('close', () => {
      if (!req.complete) reject(new SandboxError(400, 4000, 'The upload was cut off before its end'));
    });
    req.pipe(parser);
  });
}

/** A size in MB, as limits are named in messages. */
export const mb = (bytes: number) => `${bytes / 2 ** 20} MB`;
