// outreach sandbox export: what a --sandbox state (or a --state file) holds, streamed in the format asked for, read
// only (issue 28 item 4).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../helpers/run.js';
import { tempDir } from '../helpers/context.js';

describe('sandbox export', () => {
  it('streams the prospects a --sandbox import wrote, values by field label, as NDJSON and CSV', async () => {
    const configDir = tempDir('outreach-export-');
    const cwd = tempDir('outreach-export-cwd-');
    writeFileSync(join(cwd, 'leads.csv'), 'Email,First Name,Company\nzoe@export.example,Zoë,"Acme, Inc."\n');
    const imported = await run(['--sandbox', 'prospects', 'import', 'leads.csv', '--no-wait', '-q'], {
      configDir,
      cwd,
    });
    expect(imported.code).toBe(0);
    const ndjson = await run(['sandbox', 'export', 'prospects', '--ndjson'], { configDir });
    expect(ndjson.code).toBe(0);
    const records = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.find((r) => r.email === 'zoe@export.example')).toMatchObject({
      email: 'zoe@export.example',
      status: 'active',
      values: { 'First Name': 'Zoë', Company: 'Acme, Inc.' },
    });
    const csv = await run(['sandbox', 'export', 'prospects', '--csv'], { configDir });
    const [header, ...rows] = csv.stdout.trim().split('\n');
    // Our own columns by name, the prospect's fields by their labels (as `prospects import` maps them back).
    expect(header!.startsWith('id,email,status,tags,')).toBe(true);
    expect(header).toContain(',First Name,');
    expect(rows.some((row) => row.includes('zoe@export.example') && row.includes('"Acme, Inc."'))).toBe(true);
    expect(rows).toHaveLength(records.length);
  });

  it('reads a state that was never used as the seed, changes nothing, and refuses an unknown kind', async () => {
    const dir = tempDir('outreach-export-state-');
    const state = join(dir, 'sandbox.json');
    const dnc = await run(['sandbox', 'export', 'dnc', '--state', state, '--json']);
    expect(dnc.code).toBe(0);
    const items = JSON.parse(dnc.stdout) as Array<{ listId: string; value: string; type: string }>;
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ listId: expect.any(String), value: expect.any(String) });
    expect(existsSync(state)).toBe(false);
    const tasks = await run(['sandbox', 'export', 'tasks', '--state', state, '--ndjson']);
    const first = JSON.parse(tasks.stdout.split('\n')[0]!);
    expect(['upcoming', 'dueToday', 'overdue', 'completed', 'skipped']).toContain(first.status);
    const unknown = await run(['sandbox', 'export', 'people']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('people');
  });

  it('sandbox reset --state removes only a sandbox state, never a file that does not begin as one', async () => {
    const dir = tempDir('outreach-reset-');
    const leads = join(dir, 'leads.csv');
    writeFileSync(leads, 'Email\na@x.example\n');
    const refused = await run(['sandbox', 'reset', '--state', leads]);
    expect(refused).toMatchObject({
      code: 2,
      stderr:
        `error: --state ${leads}: this is not a sandbox state (it does not begin as one); nothing was removed\n` +
        'hint: Give the file that `sandbox start --state` writes.\n',
    });
    expect(readFileSync(leads, 'utf8')).toBe('Email\na@x.example\n');
    // A state cut short (the reason to reset) is still one.
    const state = join(dir, 'sandbox.json');
    writeFileSync(state, '{"version":4,"seededAt":1,"coun');
    expect((await run(['sandbox', 'reset', '--state', state])).code).toBe(0);
    expect(existsSync(state)).toBe(false);
  });

  it('leaves an SQLite database of something else exactly as it was: export and reset refuse it (exit 2)', async () => {
    const { withStateDb } = await import('../helpers/state-db.js');
    const dir = tempDir('outreach-foreign-');
    const foreign = join(dir, 'app.db');
    withStateDb(foreign, (db) => db.exec("CREATE TABLE users (name TEXT); INSERT INTO users VALUES ('ann')"));
    const before = readFileSync(foreign);
    for (const argv of [
      ['sandbox', 'export', 'tasks', '--state', foreign],
      ['sandbox', 'reset', '--state', foreign],
    ]) {
      const result = await run(argv);
      expect({ argv, code: result.code, error: result.stderr.split('\n')[0] }).toEqual({
        argv,
        code: 2,
        error: expect.stringContaining(
          'is an SQLite database, but not a sandbox state (it holds tables users); nothing in it was changed',
        ),
      });
    }
    expect(readFileSync(foreign).equals(before)).toBe(true);
  });
});
