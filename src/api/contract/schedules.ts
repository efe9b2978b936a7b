import * as z from 'zod/mini';
import { id, listOf, optional, wrapped } from './schema.js';
import { endpoint } from './endpoint.js';

const time = z.strictObject({
  hour: z.number().check(z.int(), z.gte(0), z.lte(23)),
  minute: z.number().check(z.int(), z.gte(0), z.lte(59)),
});

export const scheduleBody = z.strictObject({
  name: z
    .pipe(
      z.string(),
      z.transform((value) => value.trim()),
    )
    .check(z.minLength(1, 'name must not be empty')),
  timezone: z.string().check(z.minLength(1)),
  timeSlots: z
    .array(
      z.strictObject({
        day: z.number().check(z.int(), z.gte(0), z.lte(6)),
        slots: z.array(z.strictObject({ start: time, end: time })),
      }),
    )
    .check(z.length(7, 'timeSlots must have exactly 7 items, one per weekday')),
  isDefault: optional(z.boolean()),
});
export type ScheduleBody = z.infer<typeof scheduleBody>;

export const scheduleRecordSchema = z.looseObject({
  id,
  name: optional(z.string()),
  timezone: optional(z.string()),
  isDefault: optional(z.boolean()),
  timeSlots: optional(z.array(z.looseObject({ day: z.number(), slots: z.array(z.unknown()) }))),
});
export type ScheduleRecord = z.infer<typeof scheduleRecordSchema>;

/** The created schedule, inside payload or flat: its shape is not shown in spec.md; only an id is needed. */
const createdSchedule = z.looseObject({ id: optional(id) });

export const schedulesEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/v1/schedules',
    // A replay would create a second schedule.
    replaySafe: false,
    body: scheduleBody,
    response: wrapped(createdSchedule, 'id'),
  }),
  list: endpoint({
    method: 'GET',
    path: '/v1/schedules',
    replaySafe: true,
    // Not shown in spec.md: a bare array, payload, or payload.schedules.
    response: listOf(scheduleRecordSchema, ['schedules']),
  }),
};
