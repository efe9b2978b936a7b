import type { HttpClient } from '../http.js';
import { callWithBody } from '../call.js';
import { readList } from '../contract/schema.js';
import { schedulesEndpoints, type ScheduleBody, type ScheduleRecord } from '../contract/schedules.js';

export type { ScheduleRecord };

export async function createSchedule(http: HttpClient, body: ScheduleBody): Promise<{ id?: string; raw: unknown }> {
  const answer = await callWithBody(http, schedulesEndpoints.create, { body });
  return { id: answer.data.id, raw: answer.body };
}

/** The schedules, parsed, and each as the service sent it (whose id is a number, as subsequences refer to it). */
export async function listSchedules(http: HttpClient): Promise<Array<{ schedule: ScheduleRecord; sent: unknown }>> {
  const { data, body } = await callWithBody(http, schedulesEndpoints.list);
  const sent = readList(body, ['schedules'])?.items ?? [];
  return data.items.map((schedule, i) => ({ schedule, sent: sent[i] ?? schedule }));
}
