import type { HttpClient } from '../http.js';
import { call, callWithBody } from '../call.js';
import { schedulesEndpoints, type ScheduleBody, type ScheduleRecord } from '../contract/schedules.js';

export type { ScheduleRecord };

export async function createSchedule(http: HttpClient, body: ScheduleBody): Promise<{ id?: string; raw: unknown }> {
  const answer = await callWithBody(http, schedulesEndpoints.create, { body });
  return { id: answer.data.id, raw: answer.body };
}

export async function listSchedules(http: HttpClient): Promise<ScheduleRecord[]> {
  return (await call(http, schedulesEndpoints.list)).items;
}
