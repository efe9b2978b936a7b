import type { Readable } from 'node:stream';

/** A whole (small) stream as UTF-8 text: a key on stdin, a JSON body. */
export async function readText(stream: Readable | NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}
