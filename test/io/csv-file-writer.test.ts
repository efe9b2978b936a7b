// Report files appear whole or not at all: abort() while writes are still on their way to the disk removes the
// temporary file and raises nothing (it once raised "write after a stream was destroyed" as an uncaught error).
import { readdirSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/context.js';
import { createCsvFileWriter } from '../../src/io/csv-file-writer.js';

describe('createCsvFileWriter', () => {
  it('abort() with writes in flight leaves no file and no error', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      for (let i = 0; i < 20; i++) {
        const dir = tempDir();
        const writer = await createCsvFileWriter(`${dir}/out.csv`, ['a', 'b']);
        // A write the caller gave up on when it aborted: it may fail, it must not crash the process.
        const pending = writer.write(['x'.repeat(100_000), String(i)]).catch(() => undefined);
        await writer.abort();
        await pending;
        for (let turn = 0; turn < 5; turn++) await nextTurn();
        expect(readdirSync(dir)).toEqual([]);
      }
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('commit() puts the whole file under its name', async () => {
    const dir = tempDir();
    const writer = await createCsvFileWriter(`${dir}/out.csv`, ['a', 'b']);
    await writer.write(['1', '=2']);
    await writer.commit();
    expect(readdirSync(dir)).toEqual(['out.csv']);
  });
});
