import type { HttpClient } from '../http.js';
import { call } from '../call.js';
import { unwrapPayload } from '../contract/envelope.js';
import { scheduleRecordSchema, schedulesEndpoints, type ScheduleBody } from '../contract/schedules.js';
import { ApiError } from '../../errors.js';
import type { z } from 'zod';

export type ScheduleRecord = z.infer<typeof scheduleRecordSchema>;

export async function createSchedule(http: HttpClient, body: ScheduleBody): Promise<{ id?: string; raw: unknown }> {
  const answer = await call(http, schedulesEndpoints.create, { body });
  const payload = unwrapPayload(answer) as { id?: unknown } | undefined;
  return {
    id: payload && typeof payload === 'object' && payload.id !== undefined ? String(payload.id) : undefined,
    raw: answer,
  };
}

/** The listing's shape is not documented: a bare array, payload, or payload.schedules. */
export async function listSchedules(http: HttpClient): Promise<ScheduleRecord[]> {
  let node = unwrapPayload(await call(http, schedulesEndpoints.list));
  if (
    node &&
    typeof node === 'object' &&
    !Array.isArray(node) &&
    Array.isArray((node as { schedules?: unknown }).schedules)
  )
    node = (node as { schedules: unknown[] }).schedules;
  if (!Array.isArray(node))
    throw new ApiError('unexpected answer from GET /v1/schedules: no list in it', {
      status: 200,
      method: 'GET',
      path: '/v1/schedules',
    });
  return node.map((raw) => scheduleRecordSchema.parse(raw));
}
