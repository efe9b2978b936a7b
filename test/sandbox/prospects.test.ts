// Sandbox rules for prospects (spec.md, Prospects): conflict actions, per-row codes, async imports, limits, attributes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { prospectByEmail } from '../helpers/sandbox-state.js';
import { attributesTable } from '../../src/sandbox/resources/prospects/tables.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const prospect = (email: string) => prospectByEmail(sb, email)!;
const advance = (ms: number) => sb.request('POST', '/_sandbox/clock', { advanceMs: ms });

/** The synchronous import: one prospect by field ids, answering its status code. */
async function importSync(values: Record<string, string>, conflictAction: string, extra: Record<string, unknown> = {}) {
  const fields = Object.entries(values).map(([id, value]) => ({ id, value }));
  const res = await sb.request('POST', '/v1/prospects/import', {
    prospectList: [{ fields }],
    conflictAction,
    ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.payload[0].status as number;
}

describe('conflictAction on an existing prospect (ada: First Name Ada, Company set, Job Title empty)', () => {
  const ada = { fEmail: 'ada@analytical.io', fFirstNm: 'Augusta', fJobTitl: 'Countess', fCompany: '' };

  it('overwrite updates existing fields but does not fill empty ones, and ignores blanks', async () => {
    expect(await importSync(ada, 'overwrite')).toBe(10000);
    expect(prospect('ada@analytical.io').values).toMatchObject({ fFirstNm: 'Augusta', fCompany: 'Analytical Engines' });
    expect(prospect('ada@analytical.io').values.fJobTitl).toBeUndefined();
  });

  it('noUpdate leaves the prospect unchanged (10400)', async () => {
    expect(await importSync(ada, 'noUpdate')).toBe(10400);
    expect(prospect('ada@analytical.io').values.fFirstNm).toBe('Ada');
  });

  it('addMissingFields fills only empty fields', async () => {
    expect(await importSync(ada, 'addMissingFields')).toBe(10000);
    expect(prospect('ada@analytical.io').values).toMatchObject({
      fFirstNm: 'Ada',
      fJobTitl: 'Countess',
      fCompany: 'Analytical Engines',
    });
  });

  it('upsert updates and fills, and a blank value clears', async () => {
    expect(await importSync(ada, 'upsert')).toBe(10000);
    const values = prospect('ada@analytical.io').values;
    expect(values).toMatchObject({ fFirstNm: 'Augusta', fJobTitl: 'Countess' });
    expect(values.fCompany).toBeUndefined();
  });

  it('overwrite with nothing to overwrite answers 10500', async () => {
    expect(await importSync({ fEmail: 'ada@analytical.io', fJobTitl: 'Countess' }, 'overwrite')).toBe(10500);
  });

  it('addMissingFields with nothing missing answers 10400', async () => {
    expect(await importSync({ fEmail: 'ada@analytical.io', fFirstNm: 'Other' }, 'addMissingFields')).toBe(10400);
  });
});

describe('per-row status codes', () => {
  it('10000 creates a new prospect', async () => {
    expect(await importSync({ fEmail: 'new@person.example', fFirstNm: 'New' }, 'noUpdate')).toBe(10000);
    expect(prospect('new@person.example').values.fFirstNm).toBe('New');
  });
  it('10100 for an invalid email', async () =>
    expect(await importSync({ fEmail: 'not-an-email' }, 'noUpdate')).toBe(10100));
  it('10900 for two addresses in one cell', async () =>
    expect(await importSync({ fEmail: 'a@x.example; b@y.example' }, 'noUpdate')).toBe(10900));
  it('10700 for a bounced prospect', async () =>
    expect(await importSync({ fEmail: 'bounced@example.com' }, 'upsert')).toBe(10700));
  it('10800 for an unsubscribed prospect', async () =>
    expect(await importSync({ fEmail: 'UNSUBSCRIBED@example.com' }, 'upsert')).toBe(10800));
  it('10300 for a custom field type mismatch', async () =>
    expect(await importSync({ fEmail: 'n@x.example', cSeats00: 'lots' }, 'upsert')).toBe(10300));

  it('10600 for the same email twice in one request', async () => {
    const res = await sb.request('POST', '/v1/prospects/import', {
      prospectList: [
        { fields: [{ id: 'fEmail', value: 'twice@x.example' }] },
        { fields: [{ id: 'fEmail', value: 'Twice@x.example' }] },
      ],
      conflictAction: 'noUpdate',
    });
    expect(res.body.payload.map((r: { status: number }) => r.status)).toEqual([10000, 10600]);
  });

  it('10200 when already in another step of the same sequence', async () => {
    expect(await importSync({ fEmail: 'ada@analytical.io' }, 'noUpdate', { stepId: 'stA2call' })).toBe(10200);
  });

  it('12000 when active in another sequence', async () => {
    expect(await importSync({ fEmail: 'ada@analytical.io' }, 'noUpdate', { stepId: 'stB1mail' })).toBe(12000);
  });

  it('adds a prospect to the target step', async () => {
    expect(await importSync({ fEmail: 'linus@kernel.example' }, 'noUpdate', { stepId: 'stB1mail' })).toBe(10000);
    expect(prospect('linus@kernel.example').sequences).toEqual([
      { sequenceId: 'sqReEngg2', stepId: 'stB1mail', state: 'active' },
    ]);
  });

  it('refuses an unknown step', async () => {
    const res = await sb.request('POST', '/v1/prospects/import', {
      prospectList: [],
      conflictAction: 'noUpdate',
      stepId: 'nope',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Step nope does not exist');
  });

  it('refuses a conflictAction outside the four, naming the field', async () => {
    const res = await sb.request('POST', '/v1/prospects/import', { prospectList: [], conflictAction: 'skip' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Validation failed: body\.conflictAction: /);
  });
});

describe('asynchronous import by field name', () => {
  it('answers a requestId at once, completes after a short delay, and serves a failed-rows CSV', async () => {
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList: [{ Email: 'fresh@x.example', 'First Name': 'Fresh' }, { Email: 'bounced@example.com' }],
      conflictAction: 'noUpdate',
      tags: ['webinar'],
    });
    expect(res.status).toBe(201);
    const { requestId } = res.body.payload;
    expect(prospect('fresh@x.example').tags).toEqual(['webinar']);
    const pending = await sb.request('GET', `/v1/prospects/import-status/${requestId}`);
    expect(pending.body.payload).toEqual({ isCompleted: false });
    await advance(5_000);
    const done = await sb.request('GET', `/v1/prospects/import-status/${requestId}`);
    expect(done.body.payload.isCompleted).toBe(true);
    const url = new URL(done.body.payload.failedProspectsURL);
    expect(url.pathname).toMatch(/^\/files\/reports\/[0-9a-f]{32}\.csv$/);
    expect((await fetch(url)).status).toBe(401); // the key is needed
    const report = await sb.request('GET', url.pathname);
    expect(report.body).toBe('Row,Email,Status Code,Reason\n2,bounced@example.com,10700,bounced prospect\n');
  });

  it('has no report link when every row succeeded', async () => {
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList: [{ email: 'ok@x.example' }],
      conflictAction: 'noUpdate',
    });
    await advance(5_000);
    const done = await sb.request('GET', `/v1/prospects/import-status/${res.body.payload.requestId}`);
    expect(done.body.payload).toEqual({ isCompleted: true });
  });

  it('refuses a prospect that is not an object of strings, naming which one', async () => {
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList: [{ Email: 'a@x.example' }, { Email: 'b@x.example', Seats: 3 }],
      conflictAction: 'noUpdate',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 1001,
      message: 'Validation failed: body.prospectList.1: must be an object of field label: text',
    });
  });

  it('refuses field names that do not exist', async () => {
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList: [{ Email: 'a@x.example', Shoe: '42' }],
      conflictAction: 'noUpdate',
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 4000, message: 'Unknown field names: Shoe' });
  });

  it('refuses more than 100,000 prospects in one request', async () => {
    const prospectList = Array.from({ length: 100_001 }, (_, i) => ({ Email: `p${i}@x.example` }));
    const res = await sb.request('POST', '/v1/prospects/import-with-field-name', {
      prospectList,
      conflictAction: 'noUpdate',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Up to 100,000 prospects can be imported per request; got 100,001');
  });

  it('answers an unknown requestId with 400/40000', async () => {
    const res = await sb.request('GET', '/v1/prospects/import-status/nope');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40000);
  });
});

describe('verification and attributes', () => {
  it('returns verification status per email', async () => {
    const res = await sb.request('POST', '/v1/prospects/verification-status', {
      emails: ['ada@analytical.io', 'bounced@example.com', 'nobody@x.example', 'garbage'],
    });
    expect(res.body.payload.map((r: { verificationStatus: string }) => r.verificationStatus)).toEqual([
      'valid',
      'bad',
      'skip',
      'bad',
    ]);
  });

  it('reads a long-text attribute inside payload wrappers', async () => {
    const res = await sb.request('GET', '/v1/prospects/attribute?attributeId=atPain005');
    expect(res.body.payload.payload).toEqual({
      attributeId: 'atPain005',
      prospectId: 'prLinus05',
      fieldRefId: 'cPainPnt',
      attributeValue: 'Too many emails, not enough replies.',
    });
  });

  it('fails an unknown attribute with 400/50001', async () => {
    const res = await sb.request('GET', '/v1/prospects/attribute?attributeId=atPain005&prospectId=prAda001');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(50001);
  });

  it('sets attributes: the multiple form wins over fieldId, an invalid field id gives success false', async () => {
    const res = await sb.request('POST', '/v1/prospects/prLinus05/attribute', {
      fieldId: 'cIcebrkr',
      attributeValue: 'ignored',
      attributes: [
        { fieldId: 'cPainPnt', attributeValue: 'Too many tools' },
        { fieldId: 'nope', attributeValue: 'x' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.payload.results).toEqual([
      { fieldId: 'cPainPnt', success: true },
      { fieldId: 'nope', success: false },
    ]);
    expect(prospect('linus@kernel.example').values.cIcebrkr).toBeUndefined();
    const linus = prospect('linus@kernel.example');
    expect(sb.sandbox.store.table(attributesTable).first('prospect_id = ?', linus.id)!.attributeValue).toBe(
      'Too many tools',
    );
  });
});
