import { z } from 'zod';
import { endpoint } from './endpoint.js';

const time = z.strictObject({ hour: z.number().int().min(0).max(23), minute: z.number().int().min(0).max(59) });

export const scheduleBody = z.strictObject({
  name: z.string().trim().min(1, 'name must not be empty'),
  timezone: z.string().min(1),
  timeSlots: z
    .array(
      z.strictObject({
        day: z.number().int().min(0).max(6),
        slots: z.array(z.strictObject({ start: time, end: time })),
      }),
    )
    .length(7, 'timeSlots must have exactly 7 items, one per weekday'),
  isDefault: z.boolean().optional(),
});
export type ScheduleBody = z.infer<typeof scheduleBody>;

export const scheduleRecordSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).transform(String),
  name: z.string().optional(),
  timezone: z.string().optional(),
  isDefault: z.boolean().optional(),
  timeSlots: z.array(z.looseObject({ day: z.number(), slots: z.array(z.unknown()) })).optional(),
});

export const schedulesEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/v1/schedules',
    // A replay would create a second schedule.
    replaySafe: false,
    body: scheduleBody,
    response: z.unknown(),
  }),
  list: endpoint({ method: 'GET', path: '/v1/schedules', replaySafe: true, response: z.unknown() }),
};
