// The jobs layer on its own: the journal's versions, the poller's deadline, progress rendering.
import { stripVTControlCharacters } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/jobs/journal.js';
import { pollUntil, WaitTimedOut } from '../../src/jobs/poller.js';
import { createProgressRenderer } from '../../src/cli/progress.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { InputFileError } from '../../src/errors.js';
import { createTestContext, tempDir } from '../helpers/context.js';

describe('journal', () => {
  it('writes one versioned format and reads it back, ignoring a torn last line', () => {
    const path = join(tempDir(), 'x.journal');
    const journal = Journal.create(path, { job: 'dnc-add', input: { path: 'x.csv' }, settings: { chunkSize: 2 } });
    journal.sending(0, { firstRow: 1, lastRow: 2, rows: 2, sha256: 'aa' });
    journal.accepted(0, { firstRow: 1, lastRow: 2, rows: 2, sha256: 'aa' });
    journal.sending(1, { firstRow: 3, lastRow: 4, rows: 2, sha256: 'bb' });
    writeFileSync(path, `${readFileSync(path, 'utf8')}{"unit":1,"acc`);
    const read = Journal.read(path, 'dnc-add')!;
    expect(read.header).toEqual({
      journal: 'outreach',
      version: 2,
      job: 'dnc-add',
      input: { path: 'x.csv' },
      settings: { chunkSize: 2 },
    });
    expect([...read.acceptedUnits().keys()]).toEqual([0]);
    expect(read.unit(1).sending?.sha256).toBe('bb');
    expect(read.finished).toBe(false);
    // The torn line is gone from the file, so what a resume appends reads back.
    read.accepted(1, { firstRow: 3, lastRow: 4, rows: 2, sha256: 'bb' });
    expect([...Journal.read(path, 'dnc-add')!.acceptedUnits().keys()]).toEqual([0, 1]);
  });

  it('reads the version 1 formats of imports and bulk skips through their migration', () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'a.import-journal'),
      '{"journal":"outreach-import","version":1,"input":{"path":"a.csv"},"settings":{"chunkRows":5}}\n' +
        '{"chunk":0,"firstRow":2,"lastRow":6,"rows":5,"sha256":"cc","requestId":"r1"}\n{"finished":true,"chunks":1}\n',
    );
    const imported = Journal.read(join(dir, 'a.import-journal'), 'import')!;
    expect(imported.acceptedUnits().get(0)).toEqual({
      firstRow: 2,
      lastRow: 6,
      rows: 5,
      sha256: 'cc',
      requestId: 'r1',
    });
    expect(imported.finished).toBe(true);
    writeFileSync(
      join(dir, 'b.journal'),
      '{"journal":"outreach-bulk-skip","version":1,"failedPath":"b.failed.csv"}\n{"batch":0,"ids":["t1"]}\n' +
        '{"batch":0,"bulkActionId":"ba1"}\n{"batch":0,"done":{"completed":1,"failed":0}}\n',
    );
    const v1 = readFileSync(join(dir, 'b.journal'), 'utf8');
    const skipped = Journal.read(join(dir, 'b.journal'), 'bulk-skip')!;
    expect(readFileSync(join(dir, 'b.journal'), 'utf8')).toBe(v1); // reading alone never writes
    expect(skipped.header.settings).toEqual({ failedPath: 'b.failed.csv' });
    expect(skipped.unit(0)).toEqual({
      planned: { ids: ['t1'] },
      accepted: { bulkActionId: 'ba1' },
      done: { completed: 1, failed: 0 },
    });
  });

  it("refuses a version it does not know, and another job's journal, naming the file (exit 2)", () => {
    const path = join(tempDir(), 'future.journal');
    writeFileSync(path, '{"journal":"outreach","version":9,"job":"import"}\n');
    expect(() => Journal.read(path, 'import')).toThrow(
      `${path}: is not a journal this version of outreach reads (version 9)`,
    );
    Journal.create(path, { job: 'import', input: { path: '' }, settings: {} });
    let error: unknown;
    try {
      Journal.read(path, 'dnc-add');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InputFileError);
    expect((error as Error).message).toBe(`${path}: is the journal of another job (import), not of dnc-add`);
    expect(exitCodeFor(error)).toBe(2);
  });
});

describe('poller', () => {
  it('backs off, and gives up at the deadline saying how to check later', async () => {
    const { ctx, sleeps } = createTestContext();
    let checks = 0;
    const waiting = pollUntil(
      async () => ++checks,
      () => false,
      {
        clock: ctx.clock,
        signal: ctx.signal,
        timeoutMs: 5_000,
        what: 'import r1',
        later: { kind: 'import-status', requestId: 'r1', wait: true },
      },
    );
    await waiting.catch((error: WaitTimedOut) => {
      // The job names no flag: the CLI adds "(--wait-timeout)" when it prints the error.
      expect(error.message).toBe('import r1 is still running after 5s');
      expect(error).toBeInstanceOf(WaitTimedOut);
      expect(exitCodeFor(error)).toBe(1);
      // How to check later, as data: the CLI says it as a command line (prospects-import.test.ts shows the words).
      expect(error.later).toEqual({ kind: 'import-status', requestId: 'r1', wait: true });
    });
    expect(sleeps).toEqual([500, 750, 1125, 1688, 937]);
    expect(checks).toBe(6);
  });
});

describe('progress rendering', () => {
  const noSleep = () => Promise.resolve();
  const sink = () => {
    let text = '';
    const stream = new Writable({ write: (chunk, _enc, done) => ((text += String(chunk)), done()) });
    return { stream, text: () => text };
  };

  it('prints nothing for progress when disabled, and info lines always go to info', () => {
    const out = sink();
    const infos: string[] = [];
    const renderer = createProgressRenderer(out.stream, false, noSleep, (text) => infos.push(text));
    renderer.emit({ type: 'progress', text: '10 rows read' });
    renderer.emit({ type: 'info', text: 'Resuming: 1 chunk(s) already accepted are not sent again.' });
    renderer.stop();
    expect(out.text()).toBe('');
    expect(infos).toEqual(['Resuming: 1 chunk(s) already accepted are not sent again.']);
  });

  it('shows what a request waits for only once the wait passes its delay', async () => {
    const out = sink();
    const noop = () => true;
    Object.assign(out.stream, { isTTY: true, columns: 80, cursorTo: noop, clearLine: noop, moveCursor: noop });
    await Promise.all([import('ora'), import('../../src/cli/render/fit.js')]);
    const delays: Array<{ ms: number; pass(): void }> = [];
    const sleep = (ms: number) => new Promise<void>((pass) => delays.push({ ms, pass }));
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const renderer = createProgressRenderer(out.stream, true, sleep, () => undefined);
    renderer.activity('connecting to api.example.com');
    renderer.activity(undefined); // answered before the delay: nothing is drawn, even when the delay passes
    delays[0]!.pass();
    await settle();
    expect(out.text()).toBe('');
    renderer.activity('connecting to api.example.com');
    expect(delays.map((d) => d.ms)).toEqual([500, 500]);
    delays[1]!.pass();
    await settle();
    expect(out.text()).toContain('connecting to api.example.com');
    renderer.activity(undefined);
    renderer.stop();
  });

  it('cuts a progress line to the terminal, so it never wraps', async () => {
    const out = sink();
    const noop = () => true;
    Object.assign(out.stream, { isTTY: true, columns: 40, cursorTo: noop, clearLine: noop, moveCursor: noop });
    await Promise.all([import('ora'), import('../../src/cli/render/fit.js')]);
    const renderer = createProgressRenderer(out.stream, true, noSleep, () => undefined);
    renderer.emit({ type: 'progress', text: `import leads.csv: ${'1,000,000 rows read · '.repeat(4)}` });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    renderer.stop();
    const drawn = stripVTControlCharacters(out.text())
      .split(/[\r\n]/)
      .filter((line) => line.includes('import'));
    expect(drawn.length).toBeGreaterThan(0);
    for (const line of drawn) expect(line.length).toBeLessThanOrEqual(39);
    expect(drawn[0]).toMatch(/…$/);
  });

  it('draws no spinner on a terminal that reports no width', async () => {
    const out = sink();
    Object.assign(out.stream, { isTTY: true, columns: 0 });
    await import('ora'); // loaded already, so a spinner would start at once
    const renderer = createProgressRenderer(out.stream, true, noSleep, () => undefined);
    renderer.emit({ type: 'progress', text: '10 rows read' });
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    renderer.stop();
    expect(out.text()).toBe('');
  });
});

describe('temporary files', () => {
  it('sweeps only its own names of processes that are gone, and nothing that merely looks alike', async () => {
    const { mkdirSync, readdirSync } = await import('node:fs');
    const { sweepOrphans } = await import('../../src/jobs/temp-files.js');
    const dir = tempDir();
    const gone = 2 ** 22 + 7; // above Linux's pid_max: no process has it
    for (const name of [
      `outreach-chunk-${gone}-0123456789ab-0.json`,
      `outreach-report-${gone}-0123456789ab.csv`,
      `.leads.results.csv.outreach-tmp-${gone}-0123456789ab`,
      `my-outreach-report-${gone}-0123456789ab.csv`,
      `outreach-report-${process.pid}-0123456789ab.csv`,
      `outreach-other-${gone}-0123456789ab.csv`,
      'notes.txt',
    ])
      writeFileSync(join(dir, name), 'x');
    mkdirSync(join(dir, `outreach-stdin-${gone}-0123456789ab`));
    writeFileSync(join(dir, `outreach-stdin-${gone}-0123456789ab`, 'stdin.csv'), 'x');
    expect(sweepOrphans(dir)).toBe(4);
    expect(readdirSync(dir).sort()).toEqual(
      [
        `my-outreach-report-${gone}-0123456789ab.csv`,
        `outreach-other-${gone}-0123456789ab.csv`,
        `outreach-report-${process.pid}-0123456789ab.csv`,
        'notes.txt',
      ].sort(),
    );
  });
});

describe('import request bodies', () => {
  it('write each prospect exactly as JSON.stringify would, tricky values included', async () => {
    const { byNameFormat, byIdFormat } = await import('../../src/jobs/import/chunk-body.js');
    const { buildMapping } = await import('../../src/io/import/column-mapping.js');
    const fields = [
      { id: 'fEmail', label: 'Email', fieldType: 'text' },
      { id: 'fNote', label: 'Note "quoted"', fieldType: 'text' },
    ];
    const mapping = buildMapping(['Email', 'Note "quoted"'], fields as never, { maps: [], ignoreUnknown: false });
    const values = [
      'a@x.example',
      'plain',
      'say "hi"',
      'back\\slash',
      'tab\there',
      'line\nbreak',
      '\u0001',
      '😀',
      '\ud800',
      'é',
      '\u2028',
    ];
    const byName = byNameFormat(mapping, { conflictAction: 'noUpdate' });
    const byId = byIdFormat(mapping, { conflictAction: 'noUpdate' });
    for (const value of values) {
      expect(byName.row(['a@x.example', ` ${value} `])).toBe(
        JSON.stringify({ Email: 'a@x.example', 'Note "quoted"': value.trim() }),
      );
      expect(JSON.parse(byId.row(['a@x.example', value]))).toEqual({
        fields: [
          { id: 'fEmail', value: 'a@x.example' },
          { id: 'fNote', value: value.trim() },
        ],
      });
    }
  });
});
