// One tolerant reader for every envelope the real service and spec.md use; unknown fields pass through.
import { describe, expect, it } from 'vitest';
import { dncEndpoints } from '../../src/api/contract/dnc.js';
import { prospectsEndpoints } from '../../src/api/contract/prospects.js';
import { tasksEndpoints } from '../../src/api/contract/tasks.js';
import { listChecked } from '../../src/api/contract/schema.js';

const item = { id: 7, value: 'acme.com', type: 'domain', extra: 'kept' };
const expected = { items: [{ id: '7', value: 'acme.com', type: 'domain', extra: 'kept' }] };

describe('list envelopes', () => {
  it.each([
    ['a bare array', [item]],
    ['{payload: [...]}', { payload: [item] }],
    ['{payload: {message, payload: [...]}}', { payload: { message: 'ok', payload: [item] } }],
    ['{payload: {dncDetails, meta}}', { payload: { message: 'ok', dncDetails: [item] } }],
  ])('reads %s', (_shape, body) => {
    expect(dncEndpoints.show.response.parse(body)).toMatchObject(expected);
  });

  it('keeps the paging meta found on the way', () => {
    const body = { payload: { tasks: [{ taskId: 'tk1' }], meta: { totalPages: 3 } } };
    expect(tasksEndpoints.list.response.parse(body)).toEqual({ items: [{ taskId: 'tk1' }], meta: { totalPages: 3 } });
  });

  it('names the item and field of an answer it cannot read', () => {
    const result = dncEndpoints.show.response.safeParse({ payload: { dncDetails: [item, { id: 1 }] } });
    expect(result.error?.issues[0]?.message).toBe('item 1: value Invalid input: expected string, received undefined');
    expect(dncEndpoints.show.response.safeParse({ payload: { message: 'no list' } }).error?.issues[0]?.message).toBe(
      'no list in the answer',
    );
  });
});

describe('lists checked by a test instead of a schema (the DNC read)', () => {
  const values = listChecked<{ value: string }>(
    (raw) => (typeof (raw as { value?: unknown }).value === 'string' ? undefined : 'value must be a string'),
    ['dncDetails'],
  );

  it('reads the same envelopes and gives the items as they came, with the meta', () => {
    const body = { payload: { message: 'ok', dncDetails: [item], meta: { totalPages: 2 } } };
    const parsed = values.parse(body);
    expect(parsed).toEqual({ items: [item], meta: { totalPages: 2 } });
    expect(parsed.items[0]).toBe(body.payload.dncDetails[0]);
    expect(values.parse([item]).items).toEqual([item]);
  });

  it('names the first item that fails the test, and an answer without a list', () => {
    const bad = values.safeParse({ payload: { dncDetails: [item, item, { value: 5 }] } });
    expect(bad.error?.issues.map((i) => i.message)).toEqual(['item 2: value must be a string']);
    expect(values.safeParse({ payload: { message: 'no list' } }).error?.issues[0]?.message).toBe(
      'no list in the answer',
    );
  });
});

describe('record envelopes', () => {
  it('reads the import status flat (real service) or inside payload (spec.md)', () => {
    const flat = { isCompleted: true, reportURL: 'https://files.example/r.csv' };
    expect(prospectsEndpoints.importStatus.response.parse(flat)).toEqual(flat);
    expect(prospectsEndpoints.importStatus.response.parse({ message: 'ok', payload: { isCompleted: false } })).toEqual({
      isCompleted: false,
    });
  });

  it('reads an attribute under any number of payload wrappers', () => {
    const record = { attributeId: 'a1', prospectId: 'p1', fieldRefId: 'f1', attributeValue: 'x' };
    const body = { message: 'ok', payload: { message: 'ok', payload: record } };
    expect(prospectsEndpoints.getAttribute.response.parse(body)).toEqual(record);
  });
});

describe('enrichment job status', () => {
  it('is done only when everyone is processed or the status says it finished; an unknown status is not', async () => {
    const { enrichmentDone } = await import('../../src/api/resources/people.js');
    expect(enrichmentDone({ status: 'initiated', processed: 0, totalRecords: 2 })).toBe(false);
    expect(enrichmentDone({ status: 'IN_QUEUE' })).toBe(false);
    expect(enrichmentDone({ status: 'in-progress', processed: 1, totalRecords: 2 })).toBe(false);
    expect(enrichmentDone({ status: 'in-progress', processed: 2, totalRecords: 2 })).toBe(true);
    expect(enrichmentDone({ status: 'completed' })).toBe(true);
    expect(enrichmentDone({ status: 'FAILED' })).toBe(true);
  });
});
