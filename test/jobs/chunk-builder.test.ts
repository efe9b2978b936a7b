// A chunk's spool holds exactly the body's UTF-8 bytes, and its hash is theirs: for rows of any script, for a row
// far longer than a spool piece (encoded on its own), and for characters outside the BMP (two UTF-16 units, four bytes).
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { pid } from 'node:process';
import { describe, expect, it } from 'vitest';
import { ChunkBuilder, type SpooledChunk } from '../../src/jobs/import/chunk-builder.js';
import { tempDir } from '../../src/jobs/temp-files.js';

/** This process's chunk spools. */
const spools = () => readdirSync(tempDir()).filter((name) => name.startsWith(`outreach-chunk-${pid}-`));

async function spooled(chunk: SpooledChunk): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of chunk.body()) pieces.push(Buffer.from(piece));
  return Buffer.concat(pieces);
}

describe('a chunk builder', () => {
  it('spools and hashes the body as UTF-8, whatever the rows hold, then removes its spool', async () => {
    const rows = [
      '{"Email":"ada@example.com","Name":"Ada"}',
      `{"Email":"zoë@example.com","Note":"${'é'.repeat(150_000)}"}`,
      `{"Email":"emoji@example.com","Note":"${'😀'.repeat(70_000)}"}`,
      ...Array.from({ length: 3000 }, (_, i) => `{"Email":"r${i}@example.com","City":"Zürich 東京"}`),
    ];
    const builder = new ChunkBuilder(0, '{"prospectList":[', ']}', true);
    rows.forEach((row, i) => builder.add(i + 2, row, Buffer.byteLength(row)));
    const chunk = builder.finish();
    const expected = Buffer.from(`{"prospectList":[${rows.join(',')}]}`, 'utf8');
    const body = await spooled(chunk);
    expect(body.equals(expected)).toBe(true);
    expect(chunk.bytes).toBe(expected.length);
    expect(chunk.sha256).toBe(createHash('sha256').update(expected).digest('hex'));
    expect([chunk.rows, chunk.firstRow, chunk.lastRow]).toEqual([rows.length, 2, rows.length + 1]);
    expect(spools()).toHaveLength(1);
    chunk.discard();
    chunk.discard(); // a second time is harmless: the spool is gone already
    expect(spools()).toEqual([]);
  });
});
