// The sandbox pipeline: auth, routing, Content-Type rule, faults, controls. One test per rule.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, testKey, type TestSandbox } from '../helpers/sandbox.js';
import { opaqueId } from '../../src/sandbox/ids.js';
import { Sandbox } from '../../src/sandbox/server.js';
import { inboxCategoriesTable } from '../../src/sandbox/resources/inbox/index.js';
import { state } from '../helpers/sandbox-state.js';

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

  it('logs the last 2,000 requests, oldest first, however many came before them', async () => {
    sb = await startTestSandbox();
    // Past twice the limit, so the log has been trimmed at least once: 41 rounds of 100 requests at once, each round
    // to a path of its own (within a round they arrive in any order).
    for (let round = 0; round < 41; round++)
      await Promise.all(Array.from({ length: 100 }, () => sb!.request('GET', `/v1/nowhere-${round}`)));
    const log = sb.sandbox.requestLog;
    expect(log).toHaveLength(2000);
    expect(log[0]).toEqual({ method: 'GET', path: '/v1/nowhere-21', status: 404 });
    expect(log[99]!.path).toBe('/v1/nowhere-21');
    expect(log[100]!.path).toBe('/v1/nowhere-22');
    expect(log.at(-1)).toEqual({ method: 'GET', path: '/v1/nowhere-40', status: 404 });
    expect((await sb.request('GET', '/_sandbox/requests')).body.requests).toEqual(log);
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
    sb.sandbox.store.table(inboxCategoriesTable).clear();
    expect(state(sb).inboxCategories).toHaveLength(0);
    expect((await sb.request('POST', '/_sandbox/reset')).status).toBe(200);
    expect(state(sb).inboxCategories).toHaveLength(9);
  });

  it('a reset may keep the records of the resources owning the tables named in keep', async () => {
    sb = await startTestSandbox();
    await sb.request('POST', '/v1/dnc', { dncListId: 'dncCustmr2', items: ['kept.example'] });
    sb.sandbox.store.table(inboxCategoriesTable).clear();
    expect((await sb.request('POST', '/_sandbox/reset', { keep: ['dnc_items'] })).status).toBe(200);
    expect(state(sb).inboxCategories).toHaveLength(9);
    const kept = await sb.request('GET', '/v1/dnc/dncCustmr2');
    expect(kept.body.payload.dncDetails.map((i: { value: string }) => i.value)).toEqual([
      'acme.com',
      'ceo@initech.com',
      'kept.example',
    ]);
    expect((await sb.request('POST', '/_sandbox/reset', { keep: 'dnc_items' })).status).toBe(400);
    expect((await sb.request('POST', '/_sandbox/reset')).status).toBe(200);
    expect((await sb.request('GET', '/v1/dnc/dncCustmr2')).body.payload.meta.totalItems).toBe(2);
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
    const seeded = state({
      sandbox: new Sandbox({ key: 'k'.repeat(8), clock: { now: () => now, sleep: async () => {} } }),
    });
    expect(seeded.tasks.length).toBeGreaterThanOrEqual(250);
    expect(new Set(seeded.tasks.map((t) => t.type))).toEqual(new Set(['call', 'linkedin', 'whatsapp', 'custom']));
    const startOfToday = Date.UTC(2026, 10, 22);
    const overdue = seeded.tasks.filter((t) => !t.doneStatus && Date.parse(t.dueDate) < startOfToday);
    expect(overdue.length).toBeGreaterThan(100);
    expect(seeded.fields.some((f) => !f.isSystem)).toBe(true);
    expect(seeded.sequences.every((s) => s.steps.length > 0)).toBe(true);
    expect(seeded.dncLists.length).toBeGreaterThan(0);
    expect(seeded.domains.length).toBeGreaterThan(0);
  });
});

describe('sandbox state file', () => {
  it('--sandbox with --base-url is refused (two services); with OUTREACH_BASE_URL set it warns that it is not used', async () => {
    const { run } = await import('../helpers/run.js');
    const { tempDir } = await import('../helpers/context.js');
    const configDir = tempDir();
    const both = await run(['--sandbox', '--base-url', 'http://127.0.0.1:9', 'inbox', 'categories'], { configDir });
    expect([both.code, both.stderr.split('\n')[0]]).toEqual([2, 'error: --sandbox and --base-url name two services']);
    const env = { OUTREACH_BASE_URL: 'http://127.0.0.1:9' };
    const fromEnv = await run(['--sandbox', 'inbox', 'categories', '--json'], { configDir, env });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).toBe(
      'warning: --sandbox: OUTREACH_BASE_URL is set and not used (the in-process sandbox answers instead)\n',
    );
  });

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
    const fields = state({
      sandbox: new Sandbox({ key: 'k'.repeat(8), clock: { now: () => 0, sleep: async () => {} } }),
    }).fields;
    const v1 = {
      version: 1,
      seededAt: 0,
      counter: 1000,
      account: { ownerId: 'usOwner01', firstName: 'A', lastName: 'B', email: 'a@b.example' },
      fields: fields.filter((f) => !['State', 'Department'].includes(f.label)),
      prospects: [],
    };
    const path = join(tempDir(), 'state.json');
    writeFileSync(path, JSON.stringify(v1));
    const { state: upgraded } = loadState(path)!;
    expect(upgraded.version).toBe(4);
    expect(
      upgraded.fields.map((f) => f.label).filter((l) => ['State', 'Department', 'Company Website'].includes(l)),
    ).toEqual(['Company Website', 'State', 'Department']);
    expect(upgraded).toMatchObject({ enrichments: [], revealed: [], enrichmentStarts: [] });
  });
});

describe('sandbox state at scale', () => {
  it('keeps a table a resource, indexed as its routes search it; a command reads only the rows it needs', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { run } = await import('../helpers/run.js');
    const { tempDir } = await import('../helpers/context.js');
    const { withStateDb } = await import('../helpers/state-db.js');
    const configDir = tempDir();
    const dir = tempDir();
    const db = join(configDir, 'sandbox', 'state.db');
    writeFileSync(join(dir, 'p.csv'), 'Email,First Name\nada@x.example,Ada\ngrace@x.example,Grace\n');
    const imported = await run(['--sandbox', 'prospects', 'import', 'p.csv', '--no-wait', '-q'], {
      configDir,
      cwd: dir,
    });
    expect(imported.code).toBe(0);
    const indexes = withStateDb(db, (handle) =>
      (
        handle
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'")
          .all() as Array<{
          name: string;
        }>
      ).map((r) => r.name),
    );
    expect(indexes).toEqual(
      expect.arrayContaining(['prospects_email_key', 'attributes_prospect_id', 'tasks_c0', 'dnc_items_c0']),
    );

    // Spoil Ada's row: commands that never read it do not notice; one that does, does.
    withStateDb(db, (handle) =>
      handle.prepare('UPDATE prospects SET json = ? WHERE email_key = ?').run('{not json', 'ada@x.example'),
    );
    expect((await run(['--sandbox', 'inbox', 'categories'], { configDir })).code).toBe(0);
    expect((await run(['--sandbox', 'prospects', 'verify', 'grace@x.example'], { configDir })).code).toBe(0);
    expect((await run(['--sandbox', 'prospects', 'verify', 'ada@x.example'], { configDir })).code).toBe(1);
  });
});
