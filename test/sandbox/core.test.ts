// The sandbox pipeline: auth, routing, Content-Type rule, faults, controls. One test per rule.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { opaqueId } from '../../src/sandbox/ids.js';
import { seedState } from '../../src/sandbox/seed.js';

let sb: TestSandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe('sandbox pipeline', () => {
  it('answers a missing key with a 401 error body', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('GET', '/v1/unibox/categories', undefined, {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: true,
      type: 'auth',
      code: 1001,
      message: 'Invalid token: the x-api-key header is missing',
    });
  });

  it('answers a wrong key with a 401 error body', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('GET', '/v1/unibox/categories', undefined, { 'x-api-key': 'nope' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Invalid token: the API key is not valid');
  });

  it('answers an unknown route with a 404 error body', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('GET', '/v1/nowhere');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: true, type: 'general', code: 4040, message: 'Cannot GET /v1/nowhere' });
  });

  it('answers a GET carrying Content-Type with 406, as the real service does', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('GET', '/v1/unibox/categories', undefined, {
      'x-api-key': testKey,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(406);
  });

  it('serves the inbox categories with sentiment codes', async () => {
    sb = await startTestSandbox();
    const res = await sb.request('GET', '/v1/unibox/categories');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Categories fetched successfully');
    expect(res.body.payload.map((c: { key: string }) => c.key).slice(0, 8)).toEqual([
      'uncategorized',
      'interested',
      'not_interested',
      'meeting_booked',
      'out_of_office',
      'closed',
      'not_now',
      'do_not_contact',
    ]);
    expect(new Set(res.body.payload.map((c: { sentiment: string }) => c.sentiment))).toEqual(new Set(['1', '2', '3']));
  });

  it('injects the same faults for the same seed, and none for control routes', async () => {
    const run = async () => {
      const s = await startTestSandbox({ faults: { rate: 0.5, seed: 11, kinds: ['error500', 'unavailable503'] } });
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await s.request('GET', '/v1/unibox/categories')).status);
      expect((await s.request('GET', '/_sandbox/requests')).status).toBe(200);
      await s.close();
      return statuses;
    };
    const first = await run();
    expect(first).toEqual(await run());
    expect(first).toContain(200);
    expect(first.some((s) => s === 500 || s === 503)).toBe(true);
  });

  it('answers a 429 fault with Retry-After', async () => {
    sb = await startTestSandbox({ faults: { rate: 1, seed: 1, kinds: ['rateLimit429'] } });
    const res = await sb.request('GET', '/v1/unibox/categories');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
  });

  it('moves its clock forward and resets to the seed', async () => {
    sb = await startTestSandbox();
    const before = sb.sandbox.store.now();
    const moved = await sb.request('POST', '/_sandbox/clock', { advanceMs: 86_400_000 });
    expect(moved.status).toBe(200);
    expect(sb.sandbox.store.now() - before).toBeGreaterThanOrEqual(86_400_000);
    sb.sandbox.store.state.inboxCategories.length = 0;
    expect((await sb.request('POST', '/_sandbox/reset')).status).toBe(200);
    expect(sb.sandbox.store.state.inboxCategories).toHaveLength(9);
  });

  it('refuses a body over 90 MB with 400/4000', async () => {
    sb = await startTestSandbox();
    const big = 'x'.repeat(91 * 1024 * 1024);
    const res = await sb.request('POST', '/v1/unibox/categories', big, {
      'x-api-key': testKey,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(4000);
    expect(res.body.message).toBe('Request content of 91.0 MB exceeds the 90 MB limit');
  });
});

describe('sandbox data', () => {
  it('makes distinct opaque ids', () => {
    const ids = new Set(Array.from({ length: 50_000 }, (_, i) => opaqueId(i)));
    expect(ids.size).toBe(50_000);
    expect(opaqueId(1)).toMatch(/^[a-zA-Z2-9]{8}$/);
  });

  it('seeds at least 250 tasks of every type, over 100 overdue, dated from the clock', () => {
    const now = Date.UTC(2026, 10, 22, 15, 0, 0);
    const state = seedState(now);
    expect(state.tasks.length).toBeGreaterThanOrEqual(250);
    expect(new Set(state.tasks.map((t) => t.type))).toEqual(new Set(['call', 'linkedin', 'whatsapp', 'custom']));
    const startOfToday = Date.UTC(2026, 10, 22);
    const overdue = state.tasks.filter((t) => !t.doneStatus && Date.parse(t.dueDate) < startOfToday);
    expect(overdue.length).toBeGreaterThan(100);
    expect(state.fields.some((f) => !f.isSystem)).toBe(true);
    expect(state.sequences.every((s) => s.steps.length > 0)).toBe(true);
    expect(state.dncLists.length).toBeGreaterThan(0);
    expect(state.domains.length).toBeGreaterThan(0);
  });
});

describe('sandbox state file', () => {
  it('refuses a state file of an unknown version, naming it and how to start over (exit 2)', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { run } = await import('../helpers/run.js');
    const { tempDir } = await import('../helpers/context.js');
    const configDir = tempDir();
    const path = join(configDir, 'sandbox', 'state.json');
    mkdirSync(join(configDir, 'sandbox'));
    writeFileSync(path, JSON.stringify({ version: 99 }));
    const result = await run(['--sandbox', 'inbox', 'categories'], { configDir });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `error: ${path}: is not a sandbox state this version of outreach reads (version 99; this outreach reads up to 4)\n` +
        `hint: Start over with \`outreach sandbox reset\` (or \`outreach sandbox reset --state ${path}\`).\n`,
    );
  });
});

describe('sandbox state migration', () => {
  it('brings a version 1 state up to date: enrichment records, and the fields search results import into', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tempDir } = await import('../helpers/context.js');
    const { loadState } = await import('../../src/sandbox/state-file.js');
    const { seedState } = await import('../../src/sandbox/seed.js');
    const fresh = seedState(Date.UTC(2026, 10, 22));
    const {
      searchDisplayLimit: _a,
      enrichments: _b,
      revealed: _c,
      enrichmentLimits: _d,
      enrichmentStarts: _e,
      ...older
    } = fresh;
    const v1 = { ...older, version: 1, fields: fresh.fields.filter((f) => !['State', 'Department'].includes(f.label)) };
    const path = join(tempDir(), 'state.json');
    writeFileSync(path, JSON.stringify(v1));
    const { state } = loadState(path)!;
    expect(state.version).toBe(4);
    expect(
      state.fields.map((f) => f.label).filter((l) => ['State', 'Department', 'Company Website'].includes(l)),
    ).toEqual(['Company Website', 'State', 'Department']);
    expect(state).toMatchObject({
      searchDisplayLimit: 2500,
      enrichments: [],
      revealed: [],
      enrichmentLimits: { perMinute: 30, perHour: 1000, perDay: 10000 },
      enrichmentStarts: [],
    });
  });
});

describe('sandbox state at scale', () => {
  it('keeps prospects in shards by email: a command reads, and a save writes, only the shards it touches', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { run } = await import('../helpers/run.js');
    const { tempDir } = await import('../helpers/context.js');
    const { shardRows, withStateDb } = await import('../helpers/state-db.js');
    const { shardOfEmail } = await import('../../src/sandbox/prospect-book.js');
    const configDir = tempDir();
    const dir = tempDir();
    const db = join(configDir, 'sandbox', 'state.db');
    const importCsv = (csv: string) => {
      writeFileSync(join(dir, 'p.csv'), csv);
      return run(['--sandbox', 'prospects', 'import', 'p.csv', '--no-wait', '-q'], { configDir, cwd: dir });
    };
    expect((await importCsv('Email,First Name\nada@x.example,Ada\ngrace@x.example,Grace\n')).code).toBe(0);
    const before = shardRows(db);
    expect(before.has(shardOfEmail('ada@x.example'))).toBe(true);

    expect((await importCsv('Email\nlin@y.example\n')).code).toBe(0);
    const after = shardRows(db);
    const changed = [...after.keys()].filter((shard) => after.get(shard) !== before.get(shard));
    expect(changed).toEqual([shardOfEmail('lin@y.example')]);

    // Spoil Ada's shard: commands that never read it do not notice; one that does, does.
    withStateDb(db, (handle) =>
      handle.prepare('UPDATE shards SET json = ? WHERE shard = ?').run('{not json', shardOfEmail('ada@x.example')),
    );
    expect(shardOfEmail('ada@x.example')).not.toBe(shardOfEmail('grace@x.example'));
    expect((await run(['--sandbox', 'inbox', 'categories'], { configDir })).code).toBe(0);
    expect((await run(['--sandbox', 'prospects', 'verify', 'grace@x.example'], { configDir })).code).toBe(0);
    expect((await run(['--sandbox', 'prospects', 'verify', 'ada@x.example'], { configDir })).code).toBe(1);
  });
});
