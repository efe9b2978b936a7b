// Sandbox rules for fields (spec.md, Fields): one test per rule.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { state } from '../helpers/sandbox-state.js';

let sb: TestSandbox;
beforeEach(async () => (sb = await startTestSandbox()));
afterEach(() => sb.close());

const field = (id: string) => state(sb).fields.find((f) => f.id === id)!;

describe('GET /v1/fields', () => {
  it('lists only custom fields unless systemFields=true', async () => {
    const custom = await sb.request('GET', '/v1/fields');
    expect(custom.body.payload.map((f: { label: string }) => f.label)).toEqual([
      'Seats',
      'Renewal Date',
      'Pain Point',
      'Icebreaker',
      'Plan Tier',
    ]);
    const all = await sb.request('GET', '/v1/fields?systemFields=true');
    expect(all.body.payload[0]).toMatchObject({ id: 'fEmail', label: 'Email', fieldType: 'text' });
    expect(all.body.payload).toHaveLength(19);
  });

  it('refuses a systemFields value other than true/false, naming the parameter', async () => {
    const res = await sb.request('GET', '/v1/fields?systemFields=yes');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Validation failed: query\.systemFields: /);
  });
});

describe('PATCH /v1/fields/{fieldId}', () => {
  it('needs at least one of label, fallbackText, tags', async () => {
    const res = await sb.request('PATCH', '/v1/fields/cSeats00', {});
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation failed: body: at least one of label, fallbackText or tags must be given');
  });

  it('updates label and fallbackText and answers with a message only', async () => {
    const res = await sb.request('PATCH', '/v1/fields/cSeats00', { label: 'Seat count', fallbackText: 'a few' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Field updated successfully' });
    expect(field('cSeats00')).toMatchObject({ label: 'Seat count', fallbackText: 'a few' });
  });

  it('refuses to update a system field', async () => {
    const res = await sb.request('PATCH', '/v1/fields/fEmail', { label: 'E-mail' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(4000);
    expect(field('fEmail').label).toBe('Email');
  });

  it('leaves tags unchanged when tags is omitted', async () => {
    await sb.request('PATCH', '/v1/fields/cPainPnt', { label: 'Pain' });
    expect(field('cPainPnt').tags).toEqual(['messaging', 'Q3']);
  });

  it('removes every tag for an empty array', async () => {
    await sb.request('PATCH', '/v1/fields/cPainPnt', { tags: [] });
    expect(field('cPainPnt').tags).toEqual([]);
  });

  it('replaces tags case-insensitively: listed ones stay with their spelling, new ones are added, others removed', async () => {
    await sb.request('PATCH', '/v1/fields/cPainPnt', { tags: ['q3', 'Pricing'] });
    expect(field('cPainPnt').tags).toEqual(['Q3', 'Pricing']);
  });

  it('reuses the spelling of a tag another field already has', async () => {
    await sb.request('PATCH', '/v1/fields/cSeats00', { tags: ['MESSAGING'] });
    expect(field('cSeats00').tags).toEqual(['messaging']);
  });

  it('refuses a label another field has', async () => {
    const res = await sb.request('PATCH', '/v1/fields/cSeats00', { label: 'company' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('A field named "Company" already exists');
  });

  it('refuses an unknown field id', async () => {
    const res = await sb.request('PATCH', '/v1/fields/nope', { label: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1001);
  });
});
