// Report files appear whole or not at all: abort() while writes are still on their way to the disk removes the
// temporary file and raises nothing (it once raised "write after a stream was destroyed" as an uncaught error).
import { readdirSync, readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
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

  it("writes a user's rows as their file was: Windows-1252, its delimiter and sep= line; what 1252 lacks as \\u", async () => {
    const dir = tempDir();
    const marks = { bom: false, lineEnding: '\r\n', encoding: 'windows-1252', delimiter: ';', excelSep: true } as const;
    const writer = await createCsvFileWriter(`${dir}/rejected.csv`, ['row', 'reason', 'Name'], { marks });
    await writer.write(['3', 'on do-not-contact list "Клиенты ✓" 😀', 'Zoë “Müller”; €5']);
    await writer.commit();
    expect(readFileSync(`${dir}/rejected.csv`)).toEqual(
      iconv.encode(
        'sep=;\r\nrow;reason;Name\r\n' +
          '3;"on do-not-contact list ""\\u041a\\u043b\\u0438\\u0435\\u043d\\u0442\\u044b \\u2713"" \\u{1f600}";"Zoë “Müller”; €5"\r\n',
        'win1252',
      ),
    );
  });
});
